package dev.hindsight.platform.kafka;

import io.apicurio.registry.resolver.ParsedSchema;
import io.apicurio.registry.serde.avro.AvroEncoding;
import io.apicurio.registry.serde.avro.AvroSerdeConfig;
import io.apicurio.registry.serde.avro.AvroSerdeHeaders;
import io.apicurio.registry.serde.avro.AvroSerializer;
import io.apicurio.registry.serde.kafka.KafkaSerializer;
import java.io.IOException;
import java.io.OutputStream;
import java.util.HashMap;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.kafka.common.header.Headers;

/**
 * The Apicurio Avro serializer for Kafka (what {@code AvroKafkaSerializer} is: registry lookup, schema id in the
 * payload or in headers), writing Hindsight envelopes through {@link EnvelopeDatumProvider} with a buffered binary
 * encoder. Apicurio's own Avro serializer encodes with Avro's direct encoder, which hands every field to the output
 * stream a few bytes at a time (a synchronized {@code ByteArrayOutputStream.write} each, for every field of every
 * record, docs/benchmarks.md); the buffered encoder fills its own buffer and writes it once per record.
 * The bytes are the same, binary encoding being one format whichever encoder writes it ({@code EnvelopeSerializerTest}).
 */
public class EnvelopeSerializer<T> extends KafkaSerializer<Schema, T> {

    private AvroSerdeHeaders avroHeaders;

    public EnvelopeSerializer() {
        super(new BufferedAvroSerializer<>());
    }

    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {
        Map<String, Object> withProvider = new HashMap<>(configs);
        withProvider.put(AvroSerdeConfig.AVRO_DATUM_PROVIDER, EnvelopeDatumProvider.class);
        super.configure(withProvider, isKey);
        avroHeaders = new AvroSerdeHeaders(isKey);
    }

    @Override
    protected void serializeData(Headers headers, ParsedSchema<Schema> schema, T data, OutputStream out)
            throws IOException {
        // As AvroKafkaSerializer: with the schema reference in headers, the encoding is named there too.
        if (headers != null) {
            avroHeaders.addEncodingHeader(headers, ((AvroSerializer<T>) delegatedSerializer).getEncoding().name());
        }
        super.serializeData(headers, schema, data, out);
    }

    /** Apicurio's Avro serializer with the binary encoding written through a buffered, reused encoder. */
    static final class BufferedAvroSerializer<T> extends AvroSerializer<T> {

        /** One encoder per thread, reused across records (it is re-pointed at each record's stream). */
        private static final ThreadLocal<BinaryEncoder> ENCODERS = new ThreadLocal<>();

        private final EnvelopeDatumProvider<T> writers = new EnvelopeDatumProvider<>();

        @Override
        public void serializeData(ParsedSchema<Schema> schema, T data, OutputStream out) throws IOException {
            if (getEncoding() == AvroEncoding.JSON) {
                super.serializeData(schema, data, out);
                return;
            }
            BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, ENCODERS.get());
            ENCODERS.set(encoder);
            writers.createDatumWriter(data, schema.getParsedSchema()).write(data, encoder);
            encoder.flush();
        }
    }
}
