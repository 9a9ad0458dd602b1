package dev.hindsight.ingest.otlp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.ByteString;
import dev.hindsight.events.spans.SpanConvention;
import dev.hindsight.events.spans.SpanEventRecorded;
import dev.hindsight.events.spans.SpanRecorded;
import dev.hindsight.platform.json.StorableText;
import dev.hindsight.platform.redact.Redactor;
import dev.hindsight.platform.tenant.TenantId;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * What ingest keeps of an OTLP export (ADR 0012): every span that follows the OTel GenAI conventions ({@code gen_ai.*}
 * attributes) or OpenInference ({@code openinference.span.kind}, {@code llm.*}), as a {@link SpanRecorded} with its
 * attributes in plain JSON. Other spans (HTTP, database, ...) are ignored without complaint, so an agent can export
 * its whole trace. A span is refused alone when its ids are not valid (a trace id of 16 bytes and a span id of 8, not
 * all zero; a parent id, when given, of 8), when its text cannot be stored as sent ({@link StorableText}: a NUL or a
 * lone surrogate anywhere in its name, status, attributes, events or resource), or when the session id it names
 * ({@code gen_ai.conversation.id}, {@code session.id}) is longer than a session id may be. Secrets are redacted as
 * the tenant's policy says, among the decoded values of the attributes (a value holding a JSON document, such as
 * {@code gen_ai.input.messages}, as that document) and in the status message, before anything is cut: attribute
 * values longer than {@link #MAX_VALUE_CHARS} are then cut and named in {@code truncated}. Pure: no I/O.
 */
final class OtlpSpans {

    /** The longest string value kept (a model's whole answer fits; a pasted file may not). */
    public static final int MAX_VALUE_CHARS = 65_536;

    /** The longest session id, as everywhere in Hindsight ({@code GET /v1/sessions/{id}} finds no longer one). */
    public static final int MAX_SESSION_ID_CHARS = 128;

    /** The attributes that name a span's session (ADR 0012), in the order they are read. */
    private static final List<String> SESSION_ID_KEYS = List.of("gen_ai.conversation.id", "session.id");

    private static final HexFormat HEX = HexFormat.of();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    /** A span kept, with the trace it belongs to (the topic's key). */
    public record Kept(String traceId, SpanRecorded span) {
    }

    /** What an export yields: the spans kept, how many were refused and why (the first few reasons). */
    public record Result(List<Kept> kept, int ignored, int rejected, List<String> reasons) {
    }

    private OtlpSpans() {
    }

    public static Result of(ExportTraceServiceRequest request, Redactor redactor, TenantId tenant) {
        Consumer<ObjectNode> redact = attributes -> redactor.tree(tenant, attributes);
        List<Kept> kept = new ArrayList<>();
        List<String> reasons = new ArrayList<>();
        int ignored = 0;
        int rejected = 0;
        for (ResourceSpans resourceSpans : request.getResourceSpansList()) {
            String resource = attributes(resourceSpans.getResource().getAttributesList(), "", new ArrayList<>(),
                    redact);
            String resourceProblem = unstorable(resourceSpans.getResource().getAttributesList());
            for (ScopeSpans scopeSpans : resourceSpans.getScopeSpansList()) {
                String scope = scopeSpans.getScope().getName().isEmpty() ? null : scopeSpans.getScope().getName();
                for (Span span : scopeSpans.getSpansList()) {
                    SpanConvention convention = convention(span);
                    if (convention == null) {
                        ignored++;
                        continue;
                    }
                    String problem = invalidIds(span);
                    if (problem == null && resourceProblem != null) {
                        problem = "resource attribute " + resourceProblem;
                    }
                    if (problem == null) {
                        problem = unstorable(span, scopeSpans.getScope().getName());
                    }
                    if (problem != null) {
                        rejected++;
                        if (reasons.size() < 5) {
                            reasons.add("span '" + span.getName() + "': " + problem);
                        }
                        continue;
                    }
                    kept.add(new Kept(HEX.formatHex(span.getTraceId().toByteArray()),
                            span(span, convention, resource, scope, redact, status -> redactor.text(tenant, status))));
                }
            }
        }
        return new Result(kept, ignored, rejected, reasons);
    }

    /** GEN_AI when the span carries any gen_ai.* attribute, else OPENINFERENCE for OpenInference's, else null. */
    static SpanConvention convention(Span span) {
        boolean openInference = false;
        for (KeyValue attribute : span.getAttributesList()) {
            String key = attribute.getKey();
            if (key.startsWith("gen_ai.")) {
                return SpanConvention.GEN_AI;
            }
            if (key.equals("openinference.span.kind") || key.startsWith("llm.")) {
                openInference = true;
            }
        }
        if (openInference) {
            return SpanConvention.OPENINFERENCE;
        }
        // The older GenAI conventions put messages in span events (gen_ai.user.message, gen_ai.choice, ...).
        return span.getEventsList().stream().anyMatch(e -> e.getName().startsWith("gen_ai.")) ? SpanConvention.GEN_AI
                : null;
    }

    private static String invalidIds(Span span) {
        if (!valid(span.getTraceId(), 16)) {
            return "trace_id must be 16 bytes, not all zero";
        }
        if (!valid(span.getSpanId(), 8)) {
            return "span_id must be 8 bytes, not all zero";
        }
        if (!span.getParentSpanId().isEmpty() && !valid(span.getParentSpanId(), 8)) {
            return "parent_span_id must be empty or 8 bytes, not all zero";
        }
        return null;
    }

    /** Why the span's text cannot be stored as sent or its session id is unusable, or null. */
    private static String unstorable(Span span, String scope) {
        String problem = StorableText.problem(span.getName());
        if (problem != null) {
            return "name " + problem;
        }
        if ((problem = StorableText.problem(span.getStatus().getMessage())) != null) {
            return "status message " + problem;
        }
        if ((problem = StorableText.problem(scope)) != null) {
            return "scope name " + problem;
        }
        if ((problem = unstorable(span.getAttributesList())) != null) {
            return "attribute " + problem;
        }
        for (Span.Event event : span.getEventsList()) {
            if ((problem = StorableText.problem(event.getName())) != null) {
                return "event name " + problem;
            }
            if ((problem = unstorable(event.getAttributesList())) != null) {
                return "event '" + event.getName() + "' attribute " + problem;
            }
        }
        for (KeyValue attribute : span.getAttributesList()) {
            if (SESSION_ID_KEYS.contains(attribute.getKey()) && attribute.getValue().hasStringValue()
                    && attribute.getValue().getStringValue().length() > MAX_SESSION_ID_CHARS) {
                return "attribute " + attribute.getKey() + " is longer than a session id may be ("
                        + MAX_SESSION_ID_CHARS + " characters)";
            }
        }
        return null;
    }

    /** {@code 'key' why} for the first attribute whose key or text (at any depth) cannot be stored, or null. */
    static String unstorable(List<KeyValue> attributes) {
        for (KeyValue attribute : attributes) {
            String problem = unstorable(attribute, "");
            if (problem != null) {
                return problem;
            }
        }
        return null;
    }

    /** A nested value is named by its path: {@code 'gen_ai.input.messages.parts[1]'}. */
    private static String unstorable(KeyValue attribute, String parent) {
        String path = parent + attribute.getKey();
        String problem = StorableText.problem(attribute.getKey());
        return problem != null ? "'" + path + "' " + problem : unstorable(attribute.getValue(), path);
    }

    static String unstorable(AnyValue value, String path) {
        switch (value.getValueCase()) {
            case STRING_VALUE -> {
                String problem = StorableText.problem(value.getStringValue());
                return problem == null ? null : "'" + path + "' " + problem;
            }
            case ARRAY_VALUE -> {
                for (int i = 0; i < value.getArrayValue().getValuesCount(); i++) {
                    String problem = unstorable(value.getArrayValue().getValues(i), path + "[" + i + "]");
                    if (problem != null) {
                        return problem;
                    }
                }
                return null;
            }
            case KVLIST_VALUE -> {
                for (KeyValue entry : value.getKvlistValue().getValuesList()) {
                    String problem = unstorable(entry, path + ".");
                    if (problem != null) {
                        return problem;
                    }
                }
                return null;
            }
            default -> {
                return null;
            }
        }
    }

    static boolean valid(ByteString id, int length) {
        if (id.size() != length) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            if (id.byteAt(i) != 0) {
                return true;
            }
        }
        return false;
    }

    private static SpanRecorded span(Span span, SpanConvention convention, String resource, String scope,
            Consumer<ObjectNode> redact, UnaryOperator<String> redactText) {
        List<String> truncated = new ArrayList<>();
        String attributes = attributes(span.getAttributesList(), "", truncated, redact);
        List<SpanEventRecorded> events = new ArrayList<>(span.getEventsCount());
        for (int i = 0; i < span.getEventsCount(); i++) {
            Span.Event event = span.getEvents(i);
            events.add(SpanEventRecorded.newBuilder().setName(event.getName())
                    .setTimeUnixNano(event.getTimeUnixNano())
                    .setAttributes(attributes(event.getAttributesList(), i + "/", truncated, redact)).build());
        }
        return SpanRecorded.newBuilder()
                .setSpanId(HEX.formatHex(span.getSpanId().toByteArray()))
                .setParentSpanId(span.getParentSpanId().isEmpty() ? null
                        : HEX.formatHex(span.getParentSpanId().toByteArray()))
                .setName(span.getName())
                .setKind(span.getKind().name().replaceFirst("^SPAN_KIND_", "").replace("UNRECOGNIZED", "UNSPECIFIED"))
                .setConvention(convention)
                .setStartTimeUnixNano(span.getStartTimeUnixNano())
                .setEndTimeUnixNano(span.getEndTimeUnixNano())
                .setStatusCode(span.getStatus().getCode().name().replaceFirst("^STATUS_CODE_", "")
                        .replace("UNRECOGNIZED", "UNSET"))
                .setStatusMessage(span.getStatus().getMessage().isEmpty() ? null
                        : redactText.apply(span.getStatus().getMessage()))
                .setAttributes(attributes)
                .setEvents(events)
                .setResourceAttributes(resource)
                .setScopeName(scope)
                .setTruncated(truncated)
                .build();
    }

    /**
     * Attributes as one JSON object, redacted, then each string value longer than the limit cut; {@code prefix} names
     * an event's attributes in {@code truncated}.
     */
    static String attributes(List<KeyValue> attributes, String prefix, List<String> truncated,
            Consumer<ObjectNode> redact) {
        ObjectNode object = NODES.objectNode();
        for (KeyValue attribute : attributes) {
            object.set(attribute.getKey(), value(attribute.getValue()));
        }
        return redactedAndCut(object, prefix, truncated, redact).toString();
    }

    /** {@code object} redacted, then each string value in it longer than the limit cut (and named in truncated). */
    static ObjectNode redactedAndCut(ObjectNode object, String prefix, List<String> truncated,
            Consumer<ObjectNode> redact) {
        redact.accept(object);
        Iterator<Map.Entry<String, JsonNode>> fields = object.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> field = fields.next();
            boolean[] cut = new boolean[1];
            field.setValue(limited(field.getValue(), cut));
            if (cut[0]) {
                truncated.add(prefix + field.getKey());
            }
        }
        return object;
    }

    /** A value with every string in it longer than the limit cut, and {@code cut} set when one was. */
    private static JsonNode limited(JsonNode value, boolean[] cut) {
        if (value.isTextual()) {
            String text = value.textValue();
            String limited = limit(text, cut);
            return limited == text ? value : NODES.textNode(limited);
        }
        if (value instanceof ArrayNode array) {
            for (int i = 0; i < array.size(); i++) {
                array.set(i, limited(array.get(i), cut));
            }
        } else if (value instanceof ObjectNode object) {
            Iterator<Map.Entry<String, JsonNode>> fields = object.fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> field = fields.next();
                field.setValue(limited(field.getValue(), cut));
            }
        }
        return value;
    }

    /** OTLP's AnyValue as plain JSON (bytes as hex). */
    static JsonNode value(AnyValue value) {
        return switch (value.getValueCase()) {
            case STRING_VALUE -> NODES.textNode(value.getStringValue());
            case BOOL_VALUE -> NODES.booleanNode(value.getBoolValue());
            case INT_VALUE -> NODES.numberNode(value.getIntValue());
            case DOUBLE_VALUE -> Double.isFinite(value.getDoubleValue()) ? NODES.numberNode(value.getDoubleValue())
                    : NODES.textNode(String.valueOf(value.getDoubleValue()).toLowerCase(Locale.ROOT));
            case BYTES_VALUE -> NODES.textNode(HEX.formatHex(value.getBytesValue().toByteArray()));
            case ARRAY_VALUE -> {
                ArrayNode array = NODES.arrayNode();
                value.getArrayValue().getValuesList().forEach(v -> array.add(value(v)));
                yield array;
            }
            case KVLIST_VALUE -> {
                ObjectNode object = NODES.objectNode();
                value.getKvlistValue().getValuesList().forEach(kv -> object.set(kv.getKey(), value(kv.getValue())));
                yield object;
            }
            default -> NODES.nullNode();   // no value, or a kind this version of OTLP does not know
        };
    }

    private static String limit(String text, boolean[] cut) {
        if (text.length() <= MAX_VALUE_CHARS) {
            return text;
        }
        cut[0] = true;
        int end = MAX_VALUE_CHARS;
        if (Character.isHighSurrogate(text.charAt(end - 1))) {
            end--;
        }
        return text.substring(0, end);
    }
}
