package dev.hindsight.query.projection;

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

    /** JSON text as JSON when it is an object or array, as the text itself otherwise (never fails). */
    public static Object value(String text) {
        if (text == null) {
            return null;
        }
        String trimmed = text.trim();
        if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
            try {
                return io.vertx.core.json.Json.decodeValue(trimmed);
            } catch (DecodeException notJson) {
                return text;
            }
        }
        return text;
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
