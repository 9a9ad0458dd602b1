package dev.hindsight.platform.json;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.jackson.ObjectMapperCustomizer;
import jakarta.inject.Singleton;

/** Every service reads request bodies through {@link StorableJson}: nothing unstorable is ever acknowledged. */
@Singleton
public class StorableJsonCustomizer implements ObjectMapperCustomizer {

    @Override
    public void customize(ObjectMapper mapper) {
        mapper.registerModule(StorableJson.module());
    }
}
