package dev.hindsight.ingest.trace;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import dev.hindsight.platform.problem.Problem.FieldError;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.List;

/**
 * The published JSON Schema of a debugging trace ({@code GET /v1/schemas/trace.json}, design.md § Trace format) and
 * the validator that applies it, reporting each violation as a field path the producer recognises
 * ({@code events[2].payload.command_text}).
 */
@ApplicationScoped
class TraceSchema {

    static final String RESOURCE = "schemas/trace.schema.json";

    private final String text;
    private final JsonSchema schema;

    public TraceSchema() {
        try (InputStream in = Thread.currentThread().getContextClassLoader().getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("Missing " + RESOURCE);
            }
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        schema = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012).getSchema(text);
    }

    /** The schema document, as published. */
    public String text() {
        return text;
    }

    /** Every violation, sorted by field; empty when the trace is valid. */
    public List<FieldError> validate(JsonNode trace) {
        return schema.validate(trace).stream()
                .map(TraceSchema::toFieldError)
                .distinct()
                .sorted(Comparator.comparing(FieldError::field).thenComparing(FieldError::message))
                .toList();
    }

    private static FieldError toFieldError(ValidationMessage message) {
        String location = message.getInstanceLocation().toString();
        String field = location.equals("$") ? "" : location.startsWith("$.") ? location.substring(2)
                : location.substring(1);
        if (("required".equals(message.getType()) || "additionalProperties".equals(message.getType()))
                && message.getProperty() != null) {
            field = field.isEmpty() ? message.getProperty() : field + "." + message.getProperty();
        }
        String text = message.getMessage();
        // The library prefixes messages with the instance location; the field already says where.
        int colon = text.indexOf(": ");
        if (colon > 0 && text.startsWith("$")) {
            text = text.substring(colon + 2);
        }
        return new FieldError(field.isEmpty() ? "$" : field, text);
    }
}
