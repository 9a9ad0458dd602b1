package dev.hindsight.testing;

import java.util.HashMap;
import java.util.Map;
import kafka.server.BrokerServer;
import org.apache.kafka.common.test.KafkaClusterTestKit;

/**
 * Like {@link HindsightTestResource} (without a database unless {@code database=true} is passed as an init argument),
 * but on a broker of the test's own that it may stop and restart ({@link #stopBroker()}, {@link #startBroker()}) to
 * show what a service does while Kafka is away.
 */
public class PrivateBrokerTestResource extends HindsightTestResource {

    private static KafkaClusterTestKit cluster;

    @Override
    public void init(Map<String, String> initArgs) {
        super.init(Map.of("database", initArgs.getOrDefault("database", "false")));
    }

    @Override
    public Map<String, String> start() {
        Map<String, String> config = new HashMap<>(super.start());
        cluster = TestKafka.startPrivate();
        config.put("kafka.bootstrap.servers", cluster.bootstrapServers());
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
        super.stop();
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
