package dev.hindsight.system;

import dev.hindsight.testing.TestKafka;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartition;

/** How many records every dead-letter topic holds: what a test run adds to them is what it dead-lettered. */
final class DeadLetters {

    private DeadLetters() {
    }

    /** End offset of every partition of every {@code *.dlq} topic on the shared test broker. */
    static Map<TopicPartition, Long> count() {
        return count(TestKafka.bootstrapServers());
    }

    /** End offset of every partition of every {@code *.dlq} topic on the broker at {@code bootstrapServers}. */
    static Map<TopicPartition, Long> count(String bootstrapServers) {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
            List<String> topics = admin.listTopics().names().get(30, TimeUnit.SECONDS).stream()
                    .filter(name -> name.endsWith(".dlq")).sorted().toList();
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            for (TopicDescription topic : admin.describeTopics(topics).allTopicNames().get(30, TimeUnit.SECONDS)
                    .values()) {
                topic.partitions().forEach(p -> latest.put(new TopicPartition(topic.name(), p.partition()),
                        OffsetSpec.latest()));
            }
            Map<TopicPartition, Long> ends = new HashMap<>();
            admin.listOffsets(latest).all().get(30, TimeUnit.SECONDS)
                    .forEach((partition, info) -> ends.put(partition, info.offset()));
            return ends;
        } catch (Exception e) {
            throw new IllegalStateException("Could not read the dead-letter topics: " + e, e);
        }
    }

    /** What was dead-lettered since {@code before}, per topic ({@code "topic": records}); empty when nothing. */
    static Map<String, Long> since(Map<TopicPartition, Long> before) {
        return since(before, TestKafka.bootstrapServers());
    }

    static Map<String, Long> since(Map<TopicPartition, Long> before, String bootstrapServers) {
        Map<String, Long> added = new HashMap<>();
        count(bootstrapServers).forEach((partition, end) -> {
            long grown = end - before.getOrDefault(partition, 0L);
            if (grown > 0) {
                added.merge(partition.topic(), grown, Long::sum);
            }
        });
        return added;
    }
}
