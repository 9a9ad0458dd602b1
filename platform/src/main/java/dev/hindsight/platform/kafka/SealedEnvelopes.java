package dev.hindsight.platform.kafka;

import dev.hindsight.events.EventHeader;
import dev.hindsight.events.HindsightTopic;
import dev.hindsight.events.Sealed;
import dev.hindsight.platform.crypto.DataKeys;
import dev.hindsight.platform.crypto.Sealing;
import dev.hindsight.platform.tenant.TenantId;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificRecordBase;
import org.eclipse.microprofile.config.Config;

/**
 * Seals envelopes before they are published (ADR 0027): the event is serialized as it would have been published in
 * clear (the registry's serializer, the schema id written into the bytes rather than into headers, so that the bytes
 * alone read back), those bytes are sealed under the data key, bound to the tenant, the record key and the event id,
 * and the envelope goes out with its header and ids as they were and a {@link Sealed} payload.
 * {@link DecodingDeserializer} opens them. Thread-safe.
 */
public final class SealedEnvelopes implements AutoCloseable {

    private final EnvelopeSerializer<Object> clear = new EnvelopeSerializer<>();

    /** With the registry settings of {@code kafka} (the connector's) and the configuration's {@code apicurio.*}. */
    public SealedEnvelopes(Map<String, Object> kafka, Config config) {
        clear.configure(serdeSettings(kafka, config), false);
    }

    /** With serde settings as a Kafka client takes them ({@code apicurio.registry.url} and so on). */
    public SealedEnvelopes(Map<String, ?> serdeSettings) {
        clear.configure(serdeSettings, false);
    }

    /** {@code envelope}, to be published to {@code topic}, with its payload sealed under {@code key}. */
    @SuppressWarnings("unchecked")
    public <T extends SpecificRecordBase> T seal(String topic, T envelope, DataKeys.DataKey key) {
        HindsightTopic kind = HindsightTopic.byEnvelope(envelope.getSchema().getFullName())
                .orElseThrow(() -> new IllegalArgumentException("not a Hindsight envelope: " + envelope.getSchema()));
        EventHeader header = (EventHeader) envelope.get("header");
        byte[] bytes = clear.serialize(topic, envelope);
        byte[] sealed = Sealing.seal(key, bytes, TenantId.of(header.getTenantId()), kind.recordKey(envelope),
                header.getEventId());
        try {
            T copy = (T) envelope.getClass().getDeclaredConstructor().newInstance();
            for (Schema.Field field : envelope.getSchema().getFields()) {
                copy.put(field.pos(), envelope.get(field.pos()));
            }
            copy.put("payload", new Sealed(key.keyId(), ByteBuffer.wrap(sealed)));
            return copy;
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot copy a " + envelope.getClass().getSimpleName(), e);
        }
    }

    /**
     * What a serializer or deserializer of Hindsight envelopes is configured with outside a channel: the connector's
     * Kafka settings and the {@code mp.messaging.connector.smallrye-kafka.apicurio.*} properties.
     */
    public static Map<String, Object> serdeSettings(Map<String, Object> kafka, Config config) {
        Map<String, Object> settings = new HashMap<>(kafka);
        String prefix = "mp.messaging.connector.smallrye-kafka.";
        for (String property : config.getPropertyNames()) {
            if (property.startsWith(prefix + "apicurio.")) {
                settings.put(property.substring(prefix.length()), config.getValue(property, String.class));
            }
        }
        return settings;
    }

    @Override
    public void close() {
        clear.close();
    }
}
