package dev.hindsight.platform.crypto;

import dev.hindsight.events.datakeys.DataKeyCreated;
import dev.hindsight.events.datakeys.DataKeyDestroyed;
import dev.hindsight.events.datakeys.DataKeyEvent;
import dev.hindsight.platform.tenant.TenantId;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The data keys {@code hindsight.datakeys.v1} holds (ADR 0027), as read so far: each key's wrapping, or the mark that
 * it was destroyed. A destroyed key stays destroyed whatever is read after (a key re-wrapped under a rotated KEK and
 * published as it was being destroyed must not come back).
 */
public final class DataKeyRing {

    /** What the ring knows of a key. */
    public sealed interface Entry permits Known, Destroyed {
    }

    /** A key and what wraps it: the tenant's KEK at {@code kekVersion}, or the data key {@code parentKeyId}. */
    public record Known(DataKeys.Wrapped wrapped, String parentKeyId, Integer kekVersion) implements Entry {
    }

    /** A destroyed key: what it sealed is erased. */
    public record Destroyed(TenantId tenant) implements Entry {
    }

    private final Map<String, Entry> keys = new ConcurrentHashMap<>();

    /** Applies one event of the topic; applying one twice changes nothing. */
    public void apply(DataKeyEvent event) {
        TenantId tenant = TenantId.of(event.getHeader().getTenantId());
        if (event.getPayload() instanceof DataKeyCreated created) {
            DataKeys.Wrapped wrapped = new DataKeys.Wrapped(event.getKeyId(), tenant,
                    DataKeys.Scope.valueOf(created.getScope().name()), bytes(created.getWrapped()));
            keys.compute(event.getKeyId(), (id, known) -> known instanceof Destroyed ? known
                    : new Known(wrapped, created.getParentKeyId(), created.getKekVersion()));
        } else if (event.getPayload() instanceof DataKeyDestroyed) {
            keys.put(event.getKeyId(), new Destroyed(tenant));
        }
    }

    /** What is known of the key, or null when nothing is yet. */
    public Entry get(String keyId) {
        return keys.get(keyId);
    }

    private static byte[] bytes(java.nio.ByteBuffer buffer) {
        byte[] copy = new byte[buffer.remaining()];
        buffer.duplicate().get(copy);
        return copy;
    }
}
