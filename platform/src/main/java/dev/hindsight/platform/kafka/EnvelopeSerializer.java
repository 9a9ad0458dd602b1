package dev.hindsight.platform.kafka;

import io.apicurio.registry.serde.avro.AvroKafkaSerializer;
import io.apicurio.registry.serde.avro.AvroSerdeConfig;
import java.util.HashMap;
import java.util.Map;

/** The Apicurio Avro serializer, writing Hindsight envelopes through {@link EnvelopeDatumProvider}. */
public class EnvelopeSerializer<T> extends AvroKafkaSerializer<T> {

    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {
        Map<String, Object> withProvider = new HashMap<>(configs);
        withProvider.put(AvroSerdeConfig.AVRO_DATUM_PROVIDER, EnvelopeDatumProvider.class);
        super.configure(withProvider, isKey);
    }
}
