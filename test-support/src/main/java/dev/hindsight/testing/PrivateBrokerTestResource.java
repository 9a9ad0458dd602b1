package dev.hindsight.testing;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.HashMap;
import java.util.Map;
import kafka.server.BrokerServer;
import org.apache.kafka.common.test.KafkaClusterTestKit;

/**
 * Like {@link HindsightTestResource} without a database, but on a broker of the test's own that it may stop and
 * restart ({@link #stopBroker()}, {@link #startBroker()}) to show what producers see while Kafka is away.
 */
public class PrivateBrokerTestResource implements QuarkusTestResourceLifecycleManager {

    private static KafkaClusterTestKit cluster;

    @Override
    public Map<String, String> start() {
        cluster = TestKafka.startPrivate();
        Map<String, String> config = new HashMap<>();
        config.put("kafka.bootstrap.servers", cluster.bootstrapServers());
        config.put("mp.messaging.connector.smallrye-kafka.apicurio.registry.url", TestRegistry.url());
        config.putAll(TestTenants.config());
        config.put("quarkus.log.category.\"kafka\".level", "WARN");
        config.put("quarkus.log.category.\"org.apache.kafka\".level", "WARN");
        config.put("quarkus.log.category.\"state.change.logger\".level", "WARN");
        return config;
    }

    /** Stops the broker (the controller keeps running); clients lose their connection. */
    public static void stopBroker() {
        for (BrokerServer broker : cluster.brokers().values()) {
            broker.shutdown();
            broker.awaitShutdown();
        }
    }

    /** Starts the stopped broker again, on the same port, with its data. */
    public static void startBroker() {
        for (BrokerServer broker : cluster.brokers().values()) {
            broker.startup();
        }
    }

    @Override
    public void stop() {
        if (cluster != null) {
            try {
                cluster.close();
            } catch (Exception e) {
                throw new IllegalStateException("Could not stop the private broker", e);
            }
            cluster = null;
        }
    }
}
