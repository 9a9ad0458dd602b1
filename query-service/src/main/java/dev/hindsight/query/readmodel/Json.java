package dev.hindsight.query.readmodel;

import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Objects;

/** Small conversions shared by the projections. */
public final class Json {

    private Json() {
    }

    public static OffsetDateTime utc(Instant instant) {
        return instant == null ? null : instant.atOffset(ZoneOffset.UTC);
    }

    public static JsonObject withoutNulls(JsonObject object) {
        object.getMap().values().removeIf(Objects::isNull);
        return object;
    }

    /**
     * JSON text as the JSON value it holds (never fails): text that is not JSON, as events written before tool
     * arguments were always JSON text may hold, is the text itself.
     */
    public static Object value(String text) {
        if (text == null) {
            return null;
        }
        try {
            return io.vertx.core.json.Json.decodeValue(text);
        } catch (DecodeException notJson) {
            return text;
        }
    }

    /** JSON text that must be an object when present; anything else is kept under "value". */
    public static JsonObject object(String text) {
        Object value = value(text);
        if (value == null) {
            return null;
        }
        return value instanceof JsonObject object ? object : new JsonObject().put("value", value);
    }
}
