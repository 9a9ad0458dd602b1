package dev.hindsight.platform.kafka;

import io.apicurio.registry.serde.avro.AvroKafkaDeserializer;
import io.apicurio.registry.serde.avro.AvroSerdeConfig;
import java.util.HashMap;
import java.util.Map;

/**
 * The Apicurio Avro deserializer, reading Hindsight envelopes through {@link EnvelopeDatumProvider}. The provider is
 * handed over as a class object rather than a class name, so it is the one this application loaded.
 */
class EnvelopeDeserializer<T> extends AvroKafkaDeserializer<T> {

    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {
        Map<String, Object> withProvider = new HashMap<>(configs);
        withProvider.put(AvroSerdeConfig.AVRO_DATUM_PROVIDER, EnvelopeDatumProvider.class);
        withProvider.put(AvroSerdeConfig.USE_SPECIFIC_AVRO_READER, true);
        super.configure(withProvider, isKey);
    }
}
