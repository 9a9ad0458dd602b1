package dev.hindsight.platform.kafka;

import dev.hindsight.events.HindsightTopic;
import dev.hindsight.events.datakeys.DataKeyCreated;
import dev.hindsight.events.datakeys.DataKeyEvent;
import dev.hindsight.platform.tenant.TenantId;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.eclipse.microprofile.config.Config;

/**
 * Finds on {@code hindsight.datakeys.v1} the keys an erasure must destroy (ADR 0028): every live key of a tenant
 * owned by one of the given record keys (a session, trace, message or memory id), and the data subjects' keys that
 * wrap any of them; or every live key of the tenant. It reads the whole topic from its beginning, in constant memory
 * but for the tenant's keys (a few hundred bytes each): erasures are rare, and the topic is compacted. Blocking: never
 * on an event loop.
 */
public final class DataKeyScan {

    /** What the topic says of one key: its owner and parent, and whether it is destroyed. */
    private record Key(String owner, String parent, boolean subject, boolean destroyed) {
    }

    private final Map<String, Object> consumerSettings;
    private final String topic;

    public DataKeyScan(Map<String, Object> kafka, Config config) {
        this.consumerSettings = TopicFollower.consumerConfig(kafka, config, "data-key-scan");
        this.topic = OwnedTopics.name(config, HindsightTopic.DATA_KEYS);
    }

    /**
     * The ids of the tenant's keys not yet destroyed that are owned by one of {@code owners}, with, when
     * {@code withSubjects} (a data subject is erased), the subjects' keys that wrap them (erasing one session of a
     * person must not destroy the key of the person's other sessions); all the tenant's keys not yet destroyed when
     * {@code wholeTenant}.
     */
    public Set<String> live(TenantId tenant, Set<String> owners, boolean withSubjects, boolean wholeTenant) {
        Map<String, Key> keys = read(tenant);
        Set<String> found = new TreeSet<>();
        Set<String> parents = new HashSet<>();
        keys.forEach((id, key) -> {
            if (!key.destroyed() && (wholeTenant || (key.owner() != null && owners.contains(key.owner())))) {
                found.add(id);
                if (withSubjects && key.parent() != null) {
                    parents.add(key.parent());
                }
            }
        });
        for (String parent : parents) {
            Key key = keys.get(parent);
            if (key != null && key.subject() && !key.destroyed()) {
                found.add(parent);
            }
        }
        return found;
    }

    private Map<String, Key> read(TenantId tenant) {
        Map<String, Key> keys = new HashMap<>();
        readTenant(consumerSettings, topic, tenant, event -> {
            Key before = keys.get(event.getKeyId());
            if (event.getPayload() instanceof DataKeyCreated created) {
                // A re-wrapping after a destruction does not bring the key back (DataKeyRewrap repairs it).
                keys.put(event.getKeyId(), new Key(created.getOwner(), created.getParentKeyId(),
                        "SUBJECT".equals(created.getScope().name()), before != null && before.destroyed()));
            } else {
                keys.put(event.getKeyId(), before == null ? new Key(null, null, false, true)
                        : new Key(before.owner(), before.parent(), before.subject(), true));
            }
        });
        return keys;
    }

    /**
     * Hands {@code apply} every event of {@code tenant} that the key topic holds now, from its beginning, each
     * partition in offset order. Blocking; fails after 10 minutes.
     */
    static void readTenant(Map<String, Object> consumerSettings, String topic, TenantId tenant,
            java.util.function.Consumer<DataKeyEvent> apply) {
        try (KafkaConsumer<String, Decoded> consumer = new KafkaConsumer<>(consumerSettings)) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
                    .map(p -> new TopicPartition(topic, p.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            long deadline = System.nanoTime() + Duration.ofMinutes(10).toNanos();
            while (end.entrySet().stream().anyMatch(e -> consumer.position(e.getKey()) < e.getValue())) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(topic + " not read to its end within 10 minutes");
                }
                for (ConsumerRecord<String, Decoded> record : consumer.poll(Duration.ofMillis(200))) {
                    if (record.value() != null && record.value().envelope() instanceof DataKeyEvent event
                            && tenant.value().equals(event.getHeader().getTenantId())) {
                        apply.accept(event);
                    }
                }
            }
        }
    }
}
