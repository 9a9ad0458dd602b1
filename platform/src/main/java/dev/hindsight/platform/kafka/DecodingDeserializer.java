package dev.hindsight.platform.kafka;

import java.util.Map;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Value deserializer of the projecting consumers: reads the envelope with {@link EnvelopeDeserializer} on the
 * consumer's polling thread (a registry lookup on a cache miss blocks, so never on the event loop) and never throws:
 * an unreadable value becomes a {@link Decoded} carrying its bytes and the failure, for the projection to
 * dead-letter while its partition moves on.
 */
public class DecodingDeserializer implements Deserializer<Decoded> {

    private final EnvelopeDeserializer<Object> envelopes = new EnvelopeDeserializer<>();

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
            return new Decoded(null, null, new IllegalArgumentException("no value (tombstone)"));
        }
        try {
            Object envelope = headers == null ? envelopes.deserialize(topic, data)
                    : envelopes.deserialize(topic, headers, data);
            return envelope == null
                    ? new Decoded(data, null, new IllegalArgumentException("the value deserialized to nothing"))
                    : new Decoded(data, envelope, null);
        } catch (RuntimeException unreadable) {
            return new Decoded(data, null, unreadable);
        }
    }

    @Override
    public void close() {
        envelopes.close();
    }
}
