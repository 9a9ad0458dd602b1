package dev.hindsight.platform.kafka;

import dev.hindsight.events.HindsightTopic;
import io.apicurio.registry.serde.avro.DefaultAvroDatumProvider;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.avro.io.DatumReader;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumReader;

/**
 * Reads Hindsight envelopes into their generated classes, resolved directly rather than by name through Avro's
 * shared {@code SpecificData}, which looks them up in the thread's context class loader and can find a second copy
 * (as under {@code @QuarkusTest}). The writer schema comes from the registry; the reader schema is the one compiled
 * in, so events written with any earlier compatible schema are read as today's classes.
 * Configured as {@code apicurio.registry.avro-datum-provider}.
 */
public class EnvelopeDatumProvider<T> extends DefaultAvroDatumProvider<T> {

    private final Map<Class<?>, SpecificData> models = new ConcurrentHashMap<>();

    public EnvelopeDatumProvider() {
        super(true);
    }

    @Override
    public DatumReader<T> createDatumReader(Schema writerSchema) {
        return HindsightTopic.byEnvelope(writerSchema.getFullName())
                .map(topic -> (DatumReader<T>) new SpecificDatumReader<T>(writerSchema, topic.valueSchema(),
                        model(topic.valueType())))
                .orElseGet(() -> super.createDatumReader(writerSchema));
    }

    private SpecificData model(Class<?> type) {
        return models.computeIfAbsent(type, t -> {
            SpecificData model = new SpecificData(t.getClassLoader());
            SpecificData.getForClass(t).getConversions().forEach(model::addLogicalTypeConversion);
            return model;
        });
    }
}
