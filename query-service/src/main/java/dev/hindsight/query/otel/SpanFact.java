package dev.hindsight.query.otel;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Comparator;
import java.util.List;

/**
 * One span as {@code hindsight.spans.v1} carries it (ADR 0012), with its attributes parsed: what {@link SpanAssembly}
 * builds a session from.
 *
 * @param attributes the span's attributes as one JSON object (plain JSON values)
 * @param resource   the exporting resource's attributes
 */
record SpanFact(String traceId, String spanId, String parentSpanId, String name, String convention,
        long startNanos, long endNanos, String statusCode, String statusMessage, JsonNode attributes,
        List<Event> events, JsonNode resource) {

    /** A span event (the older GenAI conventions carry messages in them). */
    public record Event(String name, long timeNanos, JsonNode attributes) {
    }

    /** The one order in which spans are read, whatever order they arrived in: start time, then trace and span id. */
    public static final Comparator<SpanFact> ORDER = Comparator.comparingLong(SpanFact::startNanos)
            .thenComparing(SpanFact::traceId).thenComparing(SpanFact::spanId);

    /** A string attribute, or null. */
    public String text(String key) {
        JsonNode value = attributes.get(key);
        return value == null || value.isNull() ? null : value.isTextual() ? value.textValue() : value.toString();
    }

    public Long number(String key) {
        JsonNode value = attributes.get(key);
        return value != null && value.canConvertToLong() ? value.asLong() : null;
    }

    public boolean failed() {
        return "ERROR".equals(statusCode);
    }
}
