package dev.hindsight.system;

import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * A consumer group's lag as the operations page, KEDA and the Kafka exporter see it: committed offsets against the
 * log-end offsets of every partition of every topic the group reads.
 */
final class ConsumerLag {

    private ConsumerLag() {
    }

    /** The partitions of {@code group}'s topics whose committed offset is behind their end, with how far. */
    static Map<TopicPartition, Long> behind(Admin admin, String group) throws Exception {
        ConsumerGroupDescription description = admin.describeConsumerGroups(Set.of(group)).all()
                .get(30, TimeUnit.SECONDS).get(group);
        Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(group)
                .partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS);
        Set<String> topics = committed.keySet().stream().map(TopicPartition::topic).collect(Collectors.toSet());
        description.members().forEach(m -> m.assignment().topicPartitions().forEach(tp -> topics.add(tp.topic())));
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        admin.describeTopics(topics).allTopicNames().get(30, TimeUnit.SECONDS).values().forEach(topic ->
                topic.partitions().forEach(p -> latest.put(new TopicPartition(topic.name(), p.partition()),
                        OffsetSpec.latest())));
        Map<TopicPartition, Long> behind = new TreeMap<>(Comparator.comparing(TopicPartition::toString));
        admin.listOffsets(latest).all().get(30, TimeUnit.SECONDS).forEach((partition, end) -> {
            OffsetAndMetadata at = committed.get(partition);
            long lag = end.offset() - (at == null ? 0 : at.offset());
            if (lag > 0) {
                behind.put(partition, lag);
            }
        });
        return behind;
    }
}
