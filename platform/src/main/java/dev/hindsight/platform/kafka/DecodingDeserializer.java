package dev.hindsight.platform.kafka;

import dev.hindsight.events.EventHeader;
import dev.hindsight.events.HindsightTopic;
import dev.hindsight.events.Sealed;
import dev.hindsight.platform.crypto.DataKeyVault;
import dev.hindsight.platform.crypto.Sealing;
import dev.hindsight.platform.tenant.TenantId;
import io.quarkus.arc.Arc;
import io.quarkus.arc.ArcContainer;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.apache.avro.specific.SpecificRecordBase;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Value deserializer of the projecting consumers: reads the envelope with {@link EnvelopeDeserializer} on the
 * consumer's polling thread (a registry lookup on a cache miss blocks, so never on the event loop) and never throws:
 * an unreadable value becomes a {@link Decoded} carrying its bytes and the failure, for the projection to
 * dead-letter while its partition moves on.
 *
 * <p>A sealed envelope (ADR 0027) is opened here too: its data key from the service's {@link DataKeyFeed} (waited for
 * a few seconds at most, since the key topic is read to its end before a key is called missing), its payload
 * decrypted and read as the envelope it was. A key destroyed gives an {@linkplain Decoded#erased() erased} event, a key
 * that cannot be opened yet an {@linkplain Decoded#unopened() unopened} one that the projection tries again; a
 * ciphertext that does not open under the key it names was changed or moved, and is unreadable.
 */
public class DecodingDeserializer implements Deserializer<Decoded> {

    private static final long OPEN_WAIT_MS = 5_000;

    /**
     * Until then (System.nanoTime), a key that is not at hand is not waited for: one wait ran out lately, so the key
     * store is slow or away, and every record of a polled batch waiting its own five seconds would hold the polling
     * thread for minutes. Those records come back unopened and are opened again, with back-off, off this thread.
     */
    private volatile long hurriedUntil = System.nanoTime();

    private final EnvelopeDeserializer<Object> envelopes = new EnvelopeDeserializer<>();
    private final Supplier<DataKeyVault> vaults;

    public DecodingDeserializer() {
        this(DecodingDeserializer::serviceVault);
    }

    /** With the vault that opens data keys (tests; the service's {@link DataKeyFeed} otherwise). */
    public DecodingDeserializer(Supplier<DataKeyVault> vaults) {
        this.vaults = vaults;
    }

    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {
        envelopes.configure(configs, isKey);
    }

    @Override
    public Decoded deserialize(String topic, byte[] data) {
        return deserialize(topic, null, data);
    }

    @Override
    public Decoded deserialize(String topic, Headers headers, byte[] data) {
        if (data == null) {
            return Decoded.unreadable(null, new IllegalArgumentException("no value (tombstone)"));
        }
        try {
            Object envelope = headers == null ? envelopes.deserialize(topic, data)
                    : envelopes.deserialize(topic, headers, data);
            if (envelope == null) {
                return Decoded.unreadable(data, new IllegalArgumentException("the value deserialized to nothing"));
            }
            if (envelope instanceof SpecificRecordBase record && record.get("payload") instanceof Sealed sealed) {
                return open(topic, headers, data, record, sealed);
            }
            return Decoded.readable(data, envelope, null);
        } catch (RuntimeException unreadable) {
            return Decoded.unreadable(data, unreadable);
        }
    }

    private Decoded open(String topic, Headers headers, byte[] data, SpecificRecordBase envelope, Sealed sealed) {
        Supplier<Decoded> reopen = () -> deserialize(topic, headers, data);
        EventHeader header = (EventHeader) envelope.get("header");
        TenantId tenant = TenantId.of(header.getTenantId());
        DataKeyVault.Opening opening;
        long wait = System.nanoTime() - hurriedUntil < 0 ? 0 : OPEN_WAIT_MS;
        try {
            DataKeyVault vault = vaults.get();
            if (vault == null) {
                return Decoded.unopened(data, envelope, new IllegalStateException("no data keys are read here"), reopen);
            }
            opening = vault.open(tenant, sealed.getKeyId()).toCompletableFuture().get(wait, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            if (wait > 0) {
                hurriedUntil = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(OPEN_WAIT_MS);
            }
            return Decoded.unopened(data, envelope, new IllegalStateException("data key " + sealed.getKeyId()
                    + " not read within " + wait + " ms"), reopen);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Decoded.unopened(data, envelope, new IllegalStateException("interrupted"), reopen);
        } catch (ExecutionException | RuntimeException e) {
            // The KMS away, a master key missing or wrong, a key of another tenant: nothing the event can change.
            Throwable why = e instanceof ExecutionException ? e.getCause() : e;
            return Decoded.unopened(data, envelope, new IllegalStateException("data key " + sealed.getKeyId()
                    + " does not open: " + why, why), reopen);
        }
        if (opening instanceof DataKeyVault.Erased) {
            return Decoded.erased(data, envelope);
        }
        if (!(opening instanceof DataKeyVault.Open open)) {
            return Decoded.unopened(data, envelope, new IllegalStateException("data key " + sealed.getKeyId()
                    + " is not on the key topic yet"), reopen);
        }
        HindsightTopic kind = HindsightTopic.byEnvelope(envelope.getSchema().getFullName()).orElseThrow();
        byte[] clear;
        try {
            clear = Sealing.open(open.key(), bytes(sealed.getCiphertext()), tenant, kind.recordKey(envelope),
                    header.getEventId());
        } catch (GeneralSecurityException e) {
            return Decoded.unreadable(data, new IllegalArgumentException("the sealed payload does not open under "
                    + "data key " + sealed.getKeyId() + " for this tenant, key and event: it was changed or moved", e));
        }
        Object inner = envelopes.deserialize(topic, clear);
        if (!(inner instanceof SpecificRecordBase opened) || opened.getClass() != envelope.getClass()
                || !header.equals(opened.get("header"))) {
            return Decoded.unreadable(data, new IllegalArgumentException("the sealed payload is not this event"));
        }
        return Decoded.readable(data, opened, Decoded.Seal.OPENED);
    }

    private static byte[] bytes(ByteBuffer buffer) {
        byte[] copy = new byte[buffer.remaining()];
        buffer.duplicate().get(copy);
        return copy;
    }

    /** The service's vault, or null outside a running service. */
    private static DataKeyVault serviceVault() {
        ArcContainer container = Arc.container();
        return container == null || !container.isRunning() ? null
                : container.instance(DataKeyFeed.class).get().vault();
    }

    @Override
    public void close() {
        envelopes.close();
    }
}
