package dev.hindsight.query.ops;

import io.smallrye.mutiny.Uni;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupListing;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsSpec;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * What the operations page shows of Kafka: every consumer group's lag (committed offsets against the partitions'
 * ends) and how many records each dead-letter topic holds. Read with one admin client, without blocking: every call
 * is a future, and a broker that does not answer within a few seconds is reported as such rather than waited for.
 */
@ApplicationScoped
class KafkaOverview {

    static final Duration TIMEOUT = Duration.ofSeconds(5);

    /** A consumer group's lag, in all and per topic. */
    public record GroupLag(String group, long lag, int partitions, List<TopicLag> topics) {
    }

    public record TopicLag(String topic, long lag, int partitions) {
    }

    /** A dead-letter topic and the records it holds (what is retained of them). */
    public record DeadLetters(String topic, long records) {
    }

    private final String bootstrapServers;
    private volatile Admin admin;

    public KafkaOverview(@ConfigProperty(name = "kafka.bootstrap.servers") String bootstrapServers) {
        this.bootstrapServers = bootstrapServers;
    }

    private Admin admin() {
        Admin current = admin;
        if (current == null) {
            synchronized (this) {
                if (admin == null) {
                    admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                            AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) TIMEOUT.toMillis(),
                            AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) TIMEOUT.toMillis(),
                            AdminClientConfig.CLIENT_ID_CONFIG, "query-console-overview"));
                }
                current = admin;
            }
        }
        return current;
    }

    @PreDestroy
    void close() {
        if (admin != null) {
            admin.close(Duration.ofSeconds(2));
        }
    }

    /** Every consumer group's lag, largest first. */
    public Uni<List<GroupLag>> lag() {
        Admin kafka = admin();
        return uni(kafka.listConsumerGroups().all()).chain(listings -> {
            List<String> groups = listings.stream().map(ConsumerGroupListing::groupId).toList();
            if (groups.isEmpty()) {
                return Uni.createFrom().item(List.<GroupLag>of());
            }
            // Every group's committed offsets in one request.
            Map<String, ListConsumerGroupOffsetsSpec> specs = new HashMap<>();
            groups.forEach(group -> specs.put(group, new ListConsumerGroupOffsetsSpec()));
            return uni(kafka.listConsumerGroupOffsets(specs).all()).chain(offsets -> {
                Set<TopicPartition> partitions = offsets.values().stream().flatMap(m -> m.keySet().stream())
                        .collect(Collectors.toSet());
                return ends(kafka, partitions, OffsetSpec.latest()).map(ends -> {
                    List<GroupLag> lags = new ArrayList<>();
                    offsets.forEach((group, positions) -> lags.add(groupLag(group, positions, ends)));
                    lags.sort(Comparator.comparingLong(GroupLag::lag).reversed().thenComparing(GroupLag::group));
                    return lags;
                });
            });
        });
    }

    static GroupLag groupLag(String group, Map<TopicPartition, OffsetAndMetadata> positions,
            Map<TopicPartition, Long> ends) {
        Map<String, long[]> byTopic = new HashMap<>();
        positions.forEach((partition, position) -> {
            long end = ends.getOrDefault(partition, 0L);
            long behind = position == null ? end : Math.max(0, end - position.offset());
            long[] topic = byTopic.computeIfAbsent(partition.topic(), t -> new long[2]);
            topic[0] += behind;
            topic[1]++;
        });
        List<TopicLag> topics = byTopic.entrySet().stream()
                .map(e -> new TopicLag(e.getKey(), e.getValue()[0], (int) e.getValue()[1]))
                .sorted(Comparator.comparing(TopicLag::topic)).toList();
        return new GroupLag(group, topics.stream().mapToLong(TopicLag::lag).sum(), positions.size(), topics);
    }

    /** Every dead-letter topic (named {@code *.dlq}) with the records it holds. */
    public Uni<List<DeadLetters>> deadLetters() {
        Admin kafka = admin();
        return uni(kafka.listTopics().names()).chain(names -> {
                    List<String> topics = names.stream().filter(name -> name.endsWith(".dlq")).sorted().toList();
                    if (topics.isEmpty()) {
                        return Uni.createFrom().item(List.<DeadLetters>of());
                    }
                    return uni(kafka.describeTopics(topics).allTopicNames()).chain(described -> {
                        Set<TopicPartition> partitions = new HashSet<>();
                        described.forEach((topic, description) -> description.partitions()
                                .forEach(p -> partitions.add(new TopicPartition(topic, p.partition()))));
                        return Uni.combine().all().unis(ends(kafka, partitions, OffsetSpec.earliest()),
                                ends(kafka, partitions, OffsetSpec.latest())).asTuple().map(both -> {
                                    Map<String, Long> records = new HashMap<>();
                                    for (TopicPartition partition : partitions) {
                                        records.merge(partition.topic(), both.getItem2().getOrDefault(partition, 0L)
                                                - both.getItem1().getOrDefault(partition, 0L), Long::sum);
                                    }
                                    return topics.stream().map(t -> new DeadLetters(t, records.getOrDefault(t, 0L)))
                                            .toList();
                                });
                    });
                });
    }

    private static Uni<Map<TopicPartition, Long>> ends(Admin kafka, Set<TopicPartition> partitions, OffsetSpec spec) {
        if (partitions.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        partitions.forEach(partition -> request.put(partition, spec));
        return uni(kafka.listOffsets(request).all()).map(result -> {
            Map<TopicPartition, Long> offsets = new HashMap<>();
            result.forEach((partition, info) -> offsets.put(partition, info.offset()));
            return offsets;
        });
    }

    private static <T> Uni<T> uni(KafkaFuture<T> future) {
        return Uni.createFrom().completionStage(future.toCompletionStage()).ifNoItem().after(TIMEOUT)
                .failWith(() -> new IllegalStateException("Kafka did not answer within " + TIMEOUT.toSeconds()
                        + " s"));
    }
}
