package dev.hindsight.ingest.otlp;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.MessageOrBuilder;
import com.google.protobuf.util.JsonFormat;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import java.io.IOException;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;

/**
 * OTLP/JSON (the OTLP specification's JSON mapping) to and from the protobuf messages. It is protobuf's canonical
 * JSON, which the parser reads with field names in lowerCamelCase or as in the .proto (snake_case), enums as numbers
 * or names and 64-bit integers as numbers or strings, with one exception: trace and span ids are hex, not base64.
 * Ids are turned into base64 before parsing; an id that is not hex becomes empty, so that its span alone is refused
 * ({@link OtlpSpans}, {@link OtlpLogs}) rather than the whole request.
 */
final class OtlpJson {

    private static final Set<String> IDS = Set.of("traceId", "trace_id", "spanId", "span_id", "parentSpanId",
            "parent_span_id");
    private static final JsonFormat.Parser PARSER = JsonFormat.parser().ignoringUnknownFields();
    private static final JsonFormat.Printer PRINTER = JsonFormat.printer().omittingInsignificantWhitespace();

    private OtlpJson() {
    }

    /** Parses an OTLP/JSON trace export; an unreadable body is an {@link IllegalArgumentException} saying why. */
    public static ExportTraceServiceRequest traces(byte[] body, ObjectMapper json) {
        ExportTraceServiceRequest.Builder request = ExportTraceServiceRequest.newBuilder();
        parse(body, json, request, "ExportTraceServiceRequest");
        return request.build();
    }

    /** Parses an OTLP/JSON logs export; an unreadable body is an {@link IllegalArgumentException} saying why. */
    public static ExportLogsServiceRequest logs(byte[] body, ObjectMapper json) {
        ExportLogsServiceRequest.Builder request = ExportLogsServiceRequest.newBuilder();
        parse(body, json, request, "ExportLogsServiceRequest");
        return request.build();
    }

    private static void parse(byte[] body, ObjectMapper json, Message.Builder into, String what) {
        JsonNode tree;
        try {
            tree = json.readTree(body);
        } catch (IOException e) {
            throw new IllegalArgumentException("the body is not JSON: "
                    + (e instanceof JsonProcessingException p ? p.getOriginalMessage() : e.getMessage()));
        }
        if (tree == null || !tree.isObject()) {
            throw new IllegalArgumentException("the body is not a JSON object (an " + what + ")");
        }
        hexIdsToBase64(tree);
        try {
            PARSER.merge(tree.toString(), into);
        } catch (InvalidProtocolBufferException e) {
            throw new IllegalArgumentException("the body is not an OTLP/JSON " + what + ": " + e.getMessage());
        }
    }

    /** An export's response (an ExportTraceServiceResponse or ExportLogsServiceResponse) in OTLP/JSON. */
    public static String print(MessageOrBuilder response) {
        try {
            return PRINTER.print(response);
        } catch (InvalidProtocolBufferException e) {
            throw new IllegalStateException("An export response always prints", e);
        }
    }

    private static void hexIdsToBase64(JsonNode node) {
        if (node.isArray()) {
            node.forEach(OtlpJson::hexIdsToBase64);
            return;
        }
        if (!node.isObject()) {
            return;
        }
        ObjectNode object = (ObjectNode) node;
        for (Iterator<Map.Entry<String, JsonNode>> fields = object.fields(); fields.hasNext(); ) {
            Map.Entry<String, JsonNode> field = fields.next();
            if (IDS.contains(field.getKey()) && field.getValue().isTextual()) {
                field.setValue(object.textNode(base64(field.getValue().textValue())));
            } else {
                hexIdsToBase64(field.getValue());
            }
        }
    }

    private static String base64(String hex) {
        try {
            return Base64.getEncoder().encodeToString(HexFormat.of().parseHex(hex));
        } catch (IllegalArgumentException e) {
            return "";
        }
    }
}
