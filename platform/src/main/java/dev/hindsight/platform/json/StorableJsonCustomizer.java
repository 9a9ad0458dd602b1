package dev.hindsight.platform.json;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.type.LogicalType;
import io.quarkus.jackson.ObjectMapperCustomizer;
import jakarta.inject.Singleton;
import java.util.List;

/**
 * Every service reads request bodies through {@link StorableJson}: nothing unstorable is ever acknowledged. And a
 * typed field takes only the JSON type the published OpenAPI document gives it: {@code "true"} is not a boolean,
 * {@code "3"} not a number, {@code 1} not a boolean, {@code 1.5} not an integer ({@link StorableJson} refuses a number as a time) (Jackson would convert them, or cut 1.5 to 1), so a client
 * hears at once that it sends what the contract does not say.
 */
@Singleton
public class StorableJsonCustomizer implements ObjectMapperCustomizer {

    /** Applied last, so that these readers of times win over the Java time module Quarkus registers. */
    @Override
    public int priority() {
        return MINIMUM_PRIORITY;
    }

    @Override
    public void customize(ObjectMapper mapper) {
        mapper.registerModule(StorableJson.module());
        for (LogicalType type : List.of(LogicalType.Boolean, LogicalType.Integer, LogicalType.Float)) {
            mapper.coercionConfigFor(type).setCoercion(CoercionInputShape.String, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.EmptyString, CoercionAction.Fail);
        }
        mapper.coercionConfigFor(LogicalType.Integer).setCoercion(CoercionInputShape.Float, CoercionAction.Fail);
        mapper.coercionConfigFor(LogicalType.Boolean).setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Float, CoercionAction.Fail);
    }
}
