package dev.hindsight.platform.kafka;

import dev.hindsight.events.HindsightTopic;
import dev.hindsight.events.datakeys.DataKeyCreated;
import dev.hindsight.events.datakeys.DataKeyDestroyed;
import dev.hindsight.events.datakeys.DataKeyEvent;
import dev.hindsight.events.datakeys.DataKeyScope;
import dev.hindsight.events.datakeys.ErasureReason;
import dev.hindsight.platform.crypto.DataKeys;
import dev.hindsight.platform.crypto.Kms;
import dev.hindsight.platform.kafka.Publisher.Outgoing;
import dev.hindsight.platform.tenant.TenantId;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.config.Config;

/**
 * Re-wraps under the current KEK version every data key of a tenant that an older version wraps (ADR 0027), so that
 * the older master key can then be removed from the configuration once every tenant's keys are re-wrapped. A re-wrapped key keeps its id, owner and material; it is
 * published again, and compaction drops the older wrapping. Keys under a subject's key are wrapped by that key, not
 * by a KEK, and are left as they are.
 *
 * <p>A key destroyed while it is being re-wrapped must stay destroyed, yet on the compacted topic the re-wrapping
 * would be the key's latest record. So each run ends with a repair: every key whose latest record is a wrapping
 * although a destruction was read before it gets its destruction published again, after the wrapping. A run
 * interrupted before its repair is repaired by the next one (before the log cleaner removes the first destruction:
 * {@code max.compaction.lag.ms}, one hour).
 */
public final class DataKeyRewrap {

    private static final int BATCH = 500;

    /** What a run did: keys read, keys re-wrapped, destructions published again. */
    public record Result(int keys, int rewrapped, int destroyedAgain, int kekVersion) {
    }

    /** What the topic says of one key: its latest wrapping, and whether it was destroyed at any point. */
    private record State(DataKeyEvent latest, DataKeyEvent destroyed, boolean wrappedAfterDestruction) {
    }

    private final Kms kms;
    private final DataKeyIssuer issuer;
    private final Map<String, Object> consumerSettings;
    private final String topic;

    public DataKeyRewrap(Kms kms, DataKeyIssuer issuer, Map<String, Object> kafka, Config config) {
        this.kms = kms;
        this.issuer = issuer;
        this.consumerSettings = TopicFollower.consumerConfig(kafka, config, "data-key-rewrap");
        this.topic = OwnedTopics.name(config, HindsightTopic.DATA_KEYS);
    }

    /** One run for {@code tenant}: blocking (it reads the whole key topic twice), so never on an event loop. */
    public Result run(TenantId tenant) {
        int current = kms.currentVersion();
        Map<String, State> keys = read(tenant);
        List<Outgoing<DataKeyEvent>> batch = new ArrayList<>(BATCH);
        int rewrapped = 0;
        for (Map.Entry<String, State> entry : keys.entrySet()) {
            State state = entry.getValue();
            if (state.destroyed() != null || !(state.latest().getPayload() instanceof DataKeyCreated created)
                    || created.getParentKeyId() != null || created.getKekVersion() == null
                    || created.getKekVersion() == current) {
                continue;
            }
            DataKeys.Wrapped wrapped = new DataKeys.Wrapped(entry.getKey(), tenant,
                    DataKeys.Scope.valueOf(created.getScope().name()), bytes(created.getWrapped()));
            DataKeys.Wrapped again;
            try {
                again = DataKeys.rewrap(wrapped, kms.keyEncryptionKey(tenant, created.getKekVersion()),
                        kms.keyEncryptionKey(tenant, current));
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException("data key " + entry.getKey() + " does not open under KEK version "
                        + created.getKekVersion() + ": nothing after it was re-wrapped", e);
            }
            // Built field by field, enums by name: the record read may come from another class loader (tests).
            DataKeyCreated payload = DataKeyCreated.newBuilder()
                    .setScope(DataKeyScope.valueOf(created.getScope().name()))
                    .setOwner(created.getOwner())
                    .setParentKeyId(null)
                    .setKekVersion(current)
                    .setWrapped(ByteBuffer.wrap(again.wrapped()))
                    .build();
            batch.add(issuer.record(tenant, entry.getKey(), payload));
            rewrapped++;
            if (batch.size() == BATCH) {
                publish(batch);
            }
        }
        publish(batch);
        int destroyedAgain = repair(tenant);
        return new Result(keys.size(), rewrapped, destroyedAgain, current);
    }

    /** Publishes again the destruction of every key whose latest record wraps it after it was destroyed. */
    private int repair(TenantId tenant) {
        List<Outgoing<DataKeyEvent>> batch = new ArrayList<>();
        int repaired = 0;
        for (Map.Entry<String, State> entry : read(tenant).entrySet()) {
            State state = entry.getValue();
            if (state.wrappedAfterDestruction()) {
                DataKeyEvent destroyed = state.destroyed();
                String reason = ((DataKeyDestroyed) destroyed.getPayload()).getReason().name();
                batch.add(issuer.record(tenant, entry.getKey(),
                        DataKeyDestroyed.newBuilder().setReason(ErasureReason.valueOf(reason)).build()));
                repaired++;
                if (batch.size() == BATCH) {
                    publish(batch);
                }
            }
        }
        publish(batch);
        return repaired;
    }

    private void publish(List<Outgoing<DataKeyEvent>> batch) {
        if (!batch.isEmpty()) {
            issuer.republish(List.copyOf(batch)).await().atMost(Duration.ofMinutes(1));
            batch.clear();
        }
    }

    /** The tenant's keys on the key topic, as it is now, each in offset order. */
    private Map<String, State> read(TenantId tenant) {
        Map<String, State> keys = new HashMap<>();
        DataKeyScan.readTenant(consumerSettings, topic, tenant, event -> keys.merge(event.getKeyId(),
                new State(event, destroyed(event), false), (before, next) -> before.destroyed() == null ? next
                        : new State(event, before.destroyed(), next.destroyed() == null)));
        return keys;
    }

    private static DataKeyEvent destroyed(DataKeyEvent event) {
        return event.getPayload() instanceof DataKeyDestroyed ? event : null;
    }

    private static byte[] bytes(ByteBuffer buffer) {
        byte[] copy = new byte[buffer.remaining()];
        buffer.duplicate().get(copy);
        return copy;
    }
}
