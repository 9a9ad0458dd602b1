package dev.hindsight.testing;

import dev.hindsight.events.HindsightTopic;
import dev.hindsight.platform.kafka.TopicProvisioner;
import java.util.Arrays;
import java.util.List;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;

/**
 * A real Kafka broker (KRaft, one combined broker and controller) inside the test JVM, shared by every test of the
 * JVM and stopped when it exits. Ready in about two seconds; supports transactions.
 */
public final class TestKafka {

    /** Partitions of the topics the tests create: more than one, so per-key ordering is really exercised. */
    public static final int PARTITIONS = 3;

    /** The largest event its topics take: the services' default ({@code hindsight.kafka.max-message-bytes}). */
    public static final int MAX_MESSAGE_BYTES = 5_242_880;

    private static KafkaClusterTestKit cluster;

    private TestKafka() {
    }

    /** Starts the broker on first use and returns its bootstrap servers. */
    public static synchronized String bootstrapServers() {
        if (cluster == null) {
            cluster = start();
            String servers = cluster.bootstrapServers();
            TopicProvisioner.ensure(servers,
                    Arrays.stream(HindsightTopic.values()).map(HindsightTopic::defaultName).toList(), List.of(),
                    PARTITIONS, (short) 1, MAX_MESSAGE_BYTES, Arrays.stream(HindsightTopic.values())
                            .filter(HindsightTopic::compacted).map(HindsightTopic::defaultName).toList());
        }
        return cluster.bootstrapServers();
    }

    /** The running cluster, for tests that stop and restart the broker. */
    public static synchronized KafkaClusterTestKit cluster() {
        bootstrapServers();
        return cluster;
    }

    /**
     * A broker of the caller's own, for tests that stop and restart it (the shared one must stay up). Its ports are
     * pre-bound per node, so a restarted broker listens where it did before. The caller closes it.
     */
    public static KafkaClusterTestKit startPrivate() {
        return start();
    }

    private static KafkaClusterTestKit start() {
        // A broker in the test JVM must never end the JVM: Kafka ends its process through Exit on a fatal fault (and
        // may on a fault while it shuts down in the JVM's shutdown hook), which Surefire reports as a crashed fork
        // after all tests passed. Say why on stderr instead, as Kafka's own tests do.
        org.apache.kafka.common.utils.Exit.setExitProcedure((code, message) -> System.err.println(
                "Kafka asked the test JVM to exit(" + code + "): " + message));
        org.apache.kafka.common.utils.Exit.setHaltProcedure((code, message) -> System.err.println(
                "Kafka asked the test JVM to halt(" + code + "): " + message));
        try {
            KafkaClusterTestKit kit = new KafkaClusterTestKit.Builder(new TestKitNodes.Builder()
                    .setCombined(true)
                    .setNumBrokerNodes(1)
                    .setNumControllerNodes(1)
                    .build())
                    .setConfigProp("offsets.topic.replication.factor", "1")
                    .setConfigProp("offsets.topic.num.partitions", "3")
                    .setConfigProp("transaction.state.log.replication.factor", "1")
                    .setConfigProp("transaction.state.log.min.isr", "1")
                    .setConfigProp("group.initial.rebalance.delay.ms", "0")
                    // As in production: topics exist because someone provisioned them, never by accident.
                    .setConfigProp("auto.create.topics.enable", "false")
                    .build();
            kit.format();
            kit.startup();
            kit.waitForReadyBrokers();
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    kit.close();
                } catch (Exception ignored) {
                    // JVM is exiting; the kit deletes its directories itself.
                }
            }, "stop-test-kafka"));
            return kit;
        } catch (Exception e) {
            throw new IllegalStateException("Could not start the in-JVM Kafka broker: " + e.getMessage(), e);
        }
    }
}
