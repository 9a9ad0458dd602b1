package dev.hindsight.platform.consumer;

import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.common.annotation.Identifier;
import io.smallrye.reactive.messaging.kafka.KafkaClientService;
import io.smallrye.reactive.messaging.kafka.KafkaConsumer;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Moves an idle consumer group's committed offsets past transaction markers, so that a group that has applied every
 * record shows lag 0 in its committed offsets, which is what the operations page, KEDA and the Kafka exporter read.
 *
 * <p>A transactional producer (ingest's trace uploads and JSONL imports) ends each transaction with a commit marker:
 * an offset with no record behind it. A consumer commits the offset after the last record it applied, which is the
 * marker's, so the marker stays counted as lag forever. Committing the consumer's position instead would be wrong
 * while records it polled still wait to be applied. So for each partition whose committed offset has not moved since
 * the last sweep and lies below the partition's end (the last stable offset, read committed), while the member has
 * fetched to that end, a probe consumer of no group reads the gap: when it holds no record the member would be given
 * (only markers, or records of aborted transactions), the member commits the end, on its own polling thread and only
 * if its committed offset is still the one the probe started from. Nothing that was not applied is ever skipped; a
 * gap with records in it is left to the member's own commits.
 */
@Singleton
public class MarkerSweep {

    private static final Logger LOG = Logger.getLogger(MarkerSweep.class);
    private static final Duration CALL = Duration.ofSeconds(10);

    private final KafkaClientService clients;
    private final Map<String, Object> kafka;
    private final Duration interval;
    /** The committed offset each partition had at the previous sweep: unchanged means the group is idle there. */
    private final Map<TopicPartition, Long> lastSeen = new ConcurrentHashMap<>();
    private ScheduledExecutorService thread;
    private Consumer<byte[], byte[]> probe;
    private String probeIsolation;

    /**
     * @param kafka every {@code kafka.*} setting as the channels get them (bootstrap servers, TLS and SASL), for the
     *              probe consumer
     */
    public MarkerSweep(KafkaClientService clients, @Identifier("default-kafka-broker") Map<String, Object> kafka,
            @ConfigProperty(name = "hindsight.kafka.marker-sweep-interval", defaultValue = "5s") Duration interval) {
        this.clients = clients;
        this.kafka = new HashMap<>(kafka);
        this.interval = interval;
    }

    void start(@Observes StartupEvent event) {
        if (interval.isZero() || interval.isNegative()) {
            return;
        }
        thread = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "hindsight-marker-sweep");
            t.setDaemon(true);
            return t;
        });
        thread.scheduleWithFixedDelay(this::sweepQuietly, interval.toMillis(), interval.toMillis(),
                TimeUnit.MILLISECONDS);
    }

    void stop(@Observes ShutdownEvent event) {
        if (thread != null) {
            thread.shutdownNow();
            try {
                thread.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (probe != null) {
            probe.close(Duration.ofSeconds(2));
        }
    }

    private void sweepQuietly() {
        try {
            sweep();
        } catch (RuntimeException e) {
            // Kafka away, a rebalance under way: the next sweep tries again; the group's own commits are unaffected.
            LOG.debugf("marker sweep skipped: %s", e.toString());
        }
    }

    /** One sweep over every consuming channel's members. */
    private void sweep() {
        for (String channel : clients.getConsumerChannels()) {
            for (KafkaConsumer<Object, Object> member : clients.<Object, Object>getConsumers(channel)) {
                sweep(member);
            }
        }
    }

    private void sweep(KafkaConsumer<Object, Object> member) {
        Function<Consumer<Object, Object>, Map<TopicPartition, long[]>> findGaps = MarkerSweep::gaps;
        Map<TopicPartition, long[]> gaps = member.runOnPollingThread(findGaps).await().atMost(CALL.multipliedBy(3));
        gaps.forEach((partition, gap) -> {
            long committed = gap[0];
            long end = gap[1];
            Long before = lastSeen.put(partition, committed);
            if (before == null || before != committed
                    || !onlyMarkers(partition, committed, end, isolation(member))) {
                return;
            }
            Function<Consumer<Object, Object>, Boolean> commitPastMarkers = c -> {
                if (!c.assignment().contains(partition)) {
                    return false;
                }
                OffsetAndMetadata now = c.committed(Set.of(partition), CALL).get(partition);
                if (now == null || now.offset() != committed) {
                    return false;
                }
                c.commitSync(Map.of(partition, new OffsetAndMetadata(end)), CALL);
                return true;
            };
            boolean moved = member.runOnPollingThread(commitPastMarkers).await().atMost(CALL.multipliedBy(3));
            if (moved) {
                lastSeen.put(partition, end);
                LOG.debugf("committed %s past transaction markers: %d -> %d", partition, committed, end);
            }
        });
    }

    /**
     * The assigned partitions whose committed offset lies below their end while the member has fetched to that end:
     * {committed, end} each. Runs on the member's polling thread.
     */
    private static Map<TopicPartition, long[]> gaps(Consumer<Object, Object> consumer) {
        Set<TopicPartition> assigned = consumer.assignment();
        if (assigned.isEmpty()) {
            return Map.of();
        }
        Map<TopicPartition, OffsetAndMetadata> committed = consumer.committed(assigned, CALL);
        Map<TopicPartition, Long> ends = consumer.endOffsets(assigned, CALL);
        Map<TopicPartition, long[]> gaps = new HashMap<>();
        for (TopicPartition partition : assigned) {
            OffsetAndMetadata at = committed.get(partition);
            Long end = ends.get(partition);
            if (at == null || end == null || at.offset() >= end) {
                continue;
            }
            if (consumer.position(partition, CALL) >= end) {
                gaps.put(partition, new long[] {at.offset(), end});
            }
        }
        return gaps;
    }

    /** The member's isolation level; Kafka's default when none is configured. */
    private static String isolation(KafkaConsumer<?, ?> member) {
        Object level = member.configuration().get(ConsumerConfig.ISOLATION_LEVEL_CONFIG);
        return "read_committed".equals(String.valueOf(level)) ? "read_committed" : "read_uncommitted";
    }

    /** Whether {@code [from, end)} of {@code partition} holds no record a consumer of that isolation is given. */
    private boolean onlyMarkers(TopicPartition partition, long from, long end, String isolation) {
        Consumer<byte[], byte[]> reader = probe(isolation);
        reader.assign(List.of(partition));
        reader.seek(partition, from);
        long deadline = System.nanoTime() + CALL.toNanos();
        while (reader.position(partition, CALL) < end) {
            for (ConsumerRecord<byte[], byte[]> record : reader.poll(Duration.ofMillis(200)).records(partition)) {
                if (record.offset() < end) {
                    return false;
                }
            }
            if (System.nanoTime() > deadline) {
                return false;
            }
        }
        return true;
    }

    private Consumer<byte[], byte[]> probe(String isolation) {
        if (probe != null && isolation.equals(probeIsolation)) {
            return probe;
        }
        if (probe != null) {
            probe.close(Duration.ofSeconds(2));
        }
        Map<String, Object> config = new HashMap<>(kafka);
        config.remove(ConsumerConfig.GROUP_ID_CONFIG);
        config.remove(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG);
        config.remove(ConsumerConfig.CLIENT_ID_CONFIG);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation);
        // A small fetch: the gap it reads is a marker or two.
        config.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 10);
        config.put(ConsumerConfig.FETCH_MAX_BYTES_CONFIG, 1 << 20);
        probe = new org.apache.kafka.clients.consumer.KafkaConsumer<>(config, new ByteArrayDeserializer(),
                new ByteArrayDeserializer());
        probeIsolation = isolation;
        return probe;
    }
}
