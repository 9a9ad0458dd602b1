package dev.hindsight.testing;

import dev.hindsight.events.EventHeader;
import dev.hindsight.events.HindsightTopic;
import dev.hindsight.events.Sealed;
import dev.hindsight.events.datakeys.DataKeyEvent;
import dev.hindsight.platform.crypto.DataKeyRing;
import dev.hindsight.platform.crypto.DataKeyVault;
import dev.hindsight.platform.crypto.DataKeys;
import dev.hindsight.platform.crypto.Kms;
import dev.hindsight.platform.crypto.LocalKms;
import dev.hindsight.platform.crypto.Sealing;
import dev.hindsight.platform.kafka.DataKeyIssuer;
import dev.hindsight.platform.kafka.Decoded;
import dev.hindsight.platform.kafka.DecodingDeserializer;
import dev.hindsight.platform.kafka.EventSealer;
import dev.hindsight.platform.kafka.Publisher;
import dev.hindsight.platform.kafka.SealedEnvelopes;
import dev.hindsight.platform.tenant.TenantId;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import io.smallrye.mutiny.Uni;
import org.apache.avro.specific.SpecificRecordBase;

/**
 * The tests' master key (ADR 0027), and opening what the services sealed with it, as a consumer would: the data key
 * from {@code hindsight.datakeys.v1}, unwrapped by the tenant's key-encryption key derived from the master key.
 */
public final class TestCrypto {

    /** A fixed, public value, used only by tests (the platform's test profile configures the same). */
    public static final String MASTER_KEY = "AwoRGB8mLTQ7QklQV15lbHN6gYiPlp2kq7K5wMfO1dw=";

    /** A second master key version, a test value too: what a KEK rotation adds. */
    public static final String MASTER_KEY_2 = "Qk1OT1BRUlNUVVZXWFlaW1xdXl9gYWJjZGVmZ2hpams=";

    /** One vault per broker: its ring is read again only when a key is not in it yet. */
    private static final Map<String, DataKeyVault> VAULTS = new ConcurrentHashMap<>();
    /** Reads envelopes without opening them (no keys): what a sealed one names, to open it here. */
    private static final DecodingDeserializer BLIND = new DecodingDeserializer(() -> null);
    private static boolean blindConfigured;

    private TestCrypto() {
    }

    private static DataKeyVault vault(String bootstrapServers) {
        DataKeyRing ring = new DataKeyRing();
        return new DataKeyVault(ring, kms(), () -> {
            TestTopics.readAll(bootstrapServers, HindsightTopic.DATA_KEYS.defaultName(), DataKeyEvent.class)
                    .forEach(ring::apply);
            return CompletableFuture.completedFuture(null);
        });
    }

    /**
     * The configuration of a service during a KEK rotation: both master key versions, the new one current. Under the
     * test profile's own names, which win over the plain ones the platform's test profile sets.
     */
    public static Map<String, String> rotatedConfig() {
        return Map.of("%test.hindsight.crypto.master-keys.2", MASTER_KEY_2,
                "%test.hindsight.crypto.master-key-version", "2");
    }

    /** The KMS of a service during a KEK rotation ({@link #rotatedConfig}). */
    public static LocalKms rotatedKms() {
        return new LocalKms(Map.of(1, MASTER_KEY, 2, MASTER_KEY_2), 2);
    }

    /** The environment a packaged service is started with: its master key, as a deployment gives it. */
    public static Map<String, String> environment() {
        return Map.of("HINDSIGHT_CRYPTO_MASTER_KEYS_1", MASTER_KEY, "HINDSIGHT_CRYPTO_MASTER_KEY_VERSION", "1");
    }

    /**
     * The bytes a sealed Hindsight event opens to, as stored on {@code topic} (its own, or a dead-letter topic); null
     * when {@code value} is not a sealed event, cannot be read, or its key was destroyed. For scans of every topic that
     * must see what the services sealed as well as what lies in clear.
     */
    public static byte[] opened(String bootstrapServers, String topic, byte[] value) {
        if (value == null) {
            return null;
        }
        Decoded decoded = blind(topic, value);
        if (!decoded.unopened() || !(decoded.envelope() instanceof SpecificRecordBase envelope)
                || !(envelope.get("payload") instanceof Sealed sealed)) {
            return null;
        }
        EventHeader header = (EventHeader) envelope.get("header");
        ByteBuffer ciphertext = sealed.getCiphertext().duplicate();
        byte[] bytes = new byte[ciphertext.remaining()];
        ciphertext.get(bytes);
        HindsightTopic kind = HindsightTopic.byEnvelope(envelope.getSchema().getFullName()).orElseThrow();
        return open(bootstrapServers, header.getTenantId(), sealed.getKeyId(), bytes, kind.recordKey(envelope),
                header.getEventId());
    }

    /** {@code value} read as stored on {@code topic}, without opening it. */
    private static Decoded blind(String topic, byte[] value) {
        synchronized (BLIND) {
            if (!blindConfigured) {
                BLIND.configure(Map.of("apicurio.registry.url", TestRegistry.url()), false);
                blindConfigured = true;
            }
            return BLIND.deserialize(topic, value);
        }
    }

    /**
     * Whether {@code value}, stored on {@code topic}, is a sealed Hindsight event whose data key (or a key above it)
     * is destroyed on the key topic as it is now, read from its beginning with nothing cached: what any service
     * could still obtain. A sealed event whose key still opens is not erased; an event in clear never is.
     */
    public static boolean erased(String bootstrapServers, String topic, byte[] value) {
        Decoded decoded = blind(topic, value);
        if (!decoded.unopened() || !(decoded.envelope() instanceof SpecificRecordBase envelope)
                || !(envelope.get("payload") instanceof Sealed sealed)) {
            return false;
        }
        EventHeader header = (EventHeader) envelope.get("header");
        DataKeyVault.Opening opening = vault(bootstrapServers)
                .open(TenantId.of(header.getTenantId()), sealed.getKeyId()).toCompletableFuture().join();
        return opening instanceof DataKeyVault.Erased;
    }

    /**
     * {@code records}, to be written to {@code topic}, sealed as a service seals them (ADR 0027): under a data key per
     * record key, made here and published to the key topic (and acknowledged) first. For tests that must project what
     * the log holds in production, where every such event is sealed.
     */
    public static <T extends SpecificRecordBase> List<Map.Entry<String, T>> sealed(String topic,
            List<Map.Entry<String, T>> records) {
        return sealed(topic, records, kms());
    }

    /** As {@link #sealed(String, List)}, with keys wrapped under {@code kms}'s current version. */
    public static <T extends SpecificRecordBase> List<Map.Entry<String, T>> sealed(String topic,
            List<Map.Entry<String, T>> records, Kms kms) {
        DataKeyIssuer issuer = new DataKeyIssuer(kms, "test", keys -> {
            List<Map.Entry<String, DataKeyEvent>> written = new ArrayList<>();
            keys.forEach(key -> written.add(Map.entry(key.key(), key.value())));
            TestTopics.writeAll(HindsightTopic.DATA_KEYS.defaultName(), written);
            return Uni.createFrom().voidItem();
        });
        List<Publisher.Outgoing<T>> outgoing = new ArrayList<>();
        records.forEach(r -> outgoing.add(new Publisher.Outgoing<>(r.getKey(), r.getValue(), null)));
        try (EventSealer sealer = new EventSealer(issuer, new SealedEnvelopes(Map.of(
                "apicurio.registry.url", TestRegistry.url(), "apicurio.registry.find-latest", true)),
                kind -> DataKeys.Scope.SESSION, 1000)) {
            List<Map.Entry<String, T>> sealed = new ArrayList<>();
            sealer.seal(topic, outgoing).await().atMost(java.time.Duration.ofSeconds(30))
                    .forEach(o -> sealed.add(Map.entry(o.key(), o.value())));
            return sealed;
        }
    }

    /** The KMS the services under test use. */
    public static LocalKms kms() {
        return new LocalKms(Map.of(1, MASTER_KEY), 1);
    }

    /**
     * The bytes sealed under {@code keyId} for this tenant, record key and event, opened; the data keys are read from
     * {@code bootstrapServers}' key topic.
     *
     * @return the bytes in clear, or null when the key was destroyed (the event is erased)
     * @throws IllegalStateException when the key is not there or does not open the bytes
     */
    public static byte[] open(String bootstrapServers, String tenant, String keyId, byte[] sealed, String recordKey,
            UUID eventId) {
        DataKeyVault vault = VAULTS.computeIfAbsent(bootstrapServers, TestCrypto::vault);
        DataKeyVault.Opening opening = vault.open(TenantId.of(tenant), keyId).toCompletableFuture().join();
        if (opening instanceof DataKeyVault.Erased) {
            return null;
        }
        if (!(opening instanceof DataKeyVault.Open open)) {
            throw new IllegalStateException("data key " + keyId + " does not open: " + opening);
        }
        try {
            return Sealing.open(open.key(), sealed, TenantId.of(tenant), recordKey, eventId);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("a payload sealed under " + keyId + " does not open", e);
        }
    }
}
