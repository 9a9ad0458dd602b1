package dev.hindsight.ingest.otlp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.ByteString;
import dev.hindsight.events.spans.LogRecorded;
import dev.hindsight.platform.json.StorableText;
import dev.hindsight.platform.redact.Redactor;
import dev.hindsight.platform.tenant.TenantId;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * What ingest keeps of an OTLP logs export (ADR 0025): the GenAI events, the log records whose event name (the
 * record's {@code event_name}, else its {@code event.name} attribute, as instrumentations that predate the field send
 * it) starts with {@code gen_ai.}. Instrumentations such as OpenTelemetry's own for the OpenAI client send what a
 * model call said this way ({@code gen_ai.user.message}, {@code gen_ai.choice},
 * {@code gen_ai.client.inference.operation.details}), tied to the call's span by trace and span id. Other records
 * (an application's own logs) are ignored without complaint. A GenAI event is refused alone when it names no valid
 * trace and span (it could never be joined to its call) or when its text cannot be stored as sent. Its body and
 * attributes are redacted as the tenant's policy says, then cut as a span's are ({@link OtlpSpans}). Each keeps its
 * position among its span's events in the request: an instrumentation emits a call's input messages in one burst,
 * often with one timestamp, and that order is the conversation's. Pure: no I/O.
 */
final class OtlpLogs {

    private static final HexFormat HEX = HexFormat.of();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final String EVENT_NAME_ATTRIBUTE = "event.name";

    /** A GenAI event kept, with the trace it belongs to (the topic's key). */
    public record Kept(String traceId, LogRecorded log) {
    }

    /** What an export yields: the events kept, how many records were refused and why (the first few reasons). */
    public record Result(List<Kept> kept, int ignored, int rejected, List<String> reasons) {
    }

    private OtlpLogs() {
    }

    public static Result of(ExportLogsServiceRequest request, Redactor redactor, TenantId tenant) {
        Consumer<ObjectNode> redact = values -> redactor.tree(tenant, values);
        List<Kept> kept = new ArrayList<>();
        List<String> reasons = new ArrayList<>();
        int ignored = 0;
        int rejected = 0;
        Map<ByteString, Integer> positions = new HashMap<>();
        for (ResourceLogs resourceLogs : request.getResourceLogsList()) {
            List<KeyValue> resourceAttributes = resourceLogs.getResource().getAttributesList();
            String resource = OtlpSpans.attributes(resourceAttributes, "", new ArrayList<>(), redact);
            String resourceProblem = OtlpSpans.unstorable(resourceAttributes);
            for (ScopeLogs scopeLogs : resourceLogs.getScopeLogsList()) {
                String scope = scopeLogs.getScope().getName().isEmpty() ? null : scopeLogs.getScope().getName();
                for (LogRecord record : scopeLogs.getLogRecordsList()) {
                    String name = eventName(record);
                    if (name == null || !name.startsWith("gen_ai.")) {
                        ignored++;
                        continue;
                    }
                    String problem = invalidIds(record);
                    if (problem == null && resourceProblem != null) {
                        problem = "resource attribute " + resourceProblem;
                    }
                    if (problem == null) {
                        problem = unstorable(record, name, scope);
                    }
                    if (problem != null) {
                        rejected++;
                        if (reasons.size() < 5) {
                            reasons.add("log record '" + name + "': " + problem);
                        }
                        continue;
                    }
                    ByteString span = record.getTraceId().concat(record.getSpanId());
                    int position = positions.merge(span, 1, Integer::sum) - 1;
                    kept.add(new Kept(HEX.formatHex(record.getTraceId().toByteArray()),
                            log(record, name, position, resource, scope, redact)));
                }
            }
        }
        return new Result(kept, ignored, rejected, reasons);
    }

    /** The record's event name: its own field, else the {@code event.name} attribute; null when it has neither. */
    static String eventName(LogRecord record) {
        if (!record.getEventName().isEmpty()) {
            return record.getEventName();
        }
        for (KeyValue attribute : record.getAttributesList()) {
            if (attribute.getKey().equals(EVENT_NAME_ATTRIBUTE) && attribute.getValue().hasStringValue()) {
                return attribute.getValue().getStringValue();
            }
        }
        return null;
    }

    private static String invalidIds(LogRecord record) {
        if (!OtlpSpans.valid(record.getTraceId(), 16)) {
            return "trace_id must be 16 bytes, not all zero: a GenAI event is joined to its call by trace and span";
        }
        if (!OtlpSpans.valid(record.getSpanId(), 8)) {
            return "span_id must be 8 bytes, not all zero: a GenAI event is joined to its call by trace and span";
        }
        return null;
    }

    private static String unstorable(LogRecord record, String name, String scope) {
        String problem = StorableText.problem(name);
        if (problem != null) {
            return "event name " + problem;
        }
        if ((problem = StorableText.problem(record.getSeverityText())) != null) {
            return "severity text " + problem;
        }
        if ((problem = StorableText.problem(scope)) != null) {
            return "scope name " + problem;
        }
        if ((problem = OtlpSpans.unstorable(record.getBody(), "body")) != null) {
            return problem;
        }
        if ((problem = OtlpSpans.unstorable(record.getAttributesList())) != null) {
            return "attribute " + problem;
        }
        return null;
    }

    private static LogRecorded log(LogRecord record, String name, int position, String resource, String scope,
            Consumer<ObjectNode> redact) {
        List<String> truncated = new ArrayList<>();
        String attributes = OtlpSpans.attributes(record.getAttributesList(), "", truncated, redact);
        String body = null;
        if (record.getBody().getValueCase() != AnyValue.ValueCase.VALUE_NOT_SET) {
            // Redacted and cut as an attribute named "body" is, so a string body is judged as text and a
            // structured one among its values.
            ObjectNode holder = NODES.objectNode();
            holder.set("body", OtlpSpans.value(record.getBody()));
            JsonNode redacted = OtlpSpans.redactedAndCut(holder, "", truncated, redact).get("body");
            body = redacted.toString();
        }
        long time = record.getTimeUnixNano() != 0 ? record.getTimeUnixNano() : record.getObservedTimeUnixNano();
        return LogRecorded.newBuilder()
                .setSpanId(HEX.formatHex(record.getSpanId().toByteArray()))
                .setEventName(name)
                .setTimeUnixNano(time)
                .setPosition(position)
                .setSeverityText(record.getSeverityText().isEmpty() ? null : record.getSeverityText())
                .setBody(body)
                .setAttributes(attributes)
                .setResourceAttributes(resource)
                .setScopeName(scope)
                .setTruncated(truncated)
                .build();
    }
}
