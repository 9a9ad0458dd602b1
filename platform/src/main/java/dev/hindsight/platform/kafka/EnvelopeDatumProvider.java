package dev.hindsight.platform.kafka;

import dev.hindsight.events.HindsightTopic;
import io.apicurio.registry.serde.avro.DefaultAvroDatumProvider;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.avro.io.DatumReader;
import org.apache.avro.io.DatumWriter;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificRecordBase;

/**
 * Reads and writes Hindsight envelopes with their generated classes, resolved directly rather than by name through Avro's
 * shared {@code SpecificData}, which looks them up in the thread's context class loader and can find a second copy
 * (as under {@code @QuarkusTest}). The writer schema comes from the registry; the reader schema is the one compiled
 * in, so events written with any earlier compatible schema are read as today's classes. Generated records are written
 * by a {@link CompiledDatumWriter}, which writes the bytes Avro's specific writer would.
 * Configured as {@code apicurio.registry.avro-datum-provider}.
 */
public class EnvelopeDatumProvider<T> extends DefaultAvroDatumProvider<T> {

    private static final Map<Class<?>, SpecificData> MODELS = new ConcurrentHashMap<>();
    // Keyed by identity: a generated class always hands out the same Schema instance, and the default provider's
    // key (the schema's parsing fingerprint) would be computed again for every record.
    private final Map<Schema, DatumWriter<T>> writers = Collections.synchronizedMap(new IdentityHashMap<>());
    // Readers too, by the identity of the registry's writer schema (its client caches the parsed schema per id): a
    // reader made per record would resolve the writer schema against the compiled one for every record a projection
    // reads (docs/benchmarks.md). Bounded in case a registry client ever hands out fresh instances.
    private final Map<Schema, DatumReader<T>> readers = Collections.synchronizedMap(new IdentityHashMap<>());
    private static final int MAX_READERS = 256;

    public EnvelopeDatumProvider() {
        super(true);
    }

    @Override
    public DatumReader<T> createDatumReader(Schema writerSchema) {
        DatumReader<T> reader = readers.get(writerSchema);
        if (reader == null) {
            reader = newReader(writerSchema);
            if (readers.size() >= MAX_READERS) {
                readers.clear();
            }
            readers.put(writerSchema, reader);
        }
        return reader;
    }

    private DatumReader<T> newReader(Schema writerSchema) {
        return HindsightTopic.byEnvelope(writerSchema.getFullName())
                .map(topic -> (DatumReader<T>) new SpecificDatumReader<T>(writerSchema, topic.valueSchema(),
                        model(topic.valueType())))
                .orElseGet(() -> super.createDatumReader(writerSchema));
    }

    @Override
    public DatumWriter<T> createDatumWriter(T data, Schema schema) {
        if (!(data instanceof SpecificRecordBase record)) {
            return super.createDatumWriter(data, schema);
        }
        return writers.computeIfAbsent(schema, s -> new CompiledDatumWriter<>(s, model(record.getClass())));
    }

    /**
     * The Avro model that reads and writes {@code type} with that very class (and its logical-type conversions),
     * whatever the thread's context class loader: for code that encodes envelopes outside a serializer.
     */
    public static SpecificData model(Class<?> type) {
        return MODELS.computeIfAbsent(type, t -> {
            SpecificData model = new SpecificData(t.getClassLoader());
            SpecificData.getForClass(t).getConversions().forEach(model::addLogicalTypeConversion);
            return model;
        });
    }
}
