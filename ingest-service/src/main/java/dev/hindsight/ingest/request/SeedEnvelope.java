package dev.hindsight.ingest.request;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hindsight.platform.problem.Problem.FieldError;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * Audit events arrive either wrapped, {@code {"event_type": "...", "level": "info", "payload": {...}}}, or as the bare
 * payload (design.md § Decision sets, design.md § Behaviour signals). This unwraps the first form and checks its event
 * type and level.
 */
public record SeedEnvelope(JsonNode payload, String prefix, String level) {

    private static final Set<String> ENVELOPE_FIELDS = Set.of("event_type", "level", "payload");
    private static final Set<String> LEVELS = Set.of("info", "warn", "error");

    /** The payload to bind, or null when {@code errors} received the reasons. */
    public static SeedEnvelope unwrap(JsonNode body, String expectedType, String path, List<FieldError> errors) {
        if (body == null || !body.isObject()) {
            errors.add(new FieldError(path.isEmpty() ? "$" : path, "must be an object"));
            return null;
        }
        if (!body.has("payload")) {
            return new SeedEnvelope(body, path, null);
        }
        int before = errors.size();
        for (Iterator<String> names = body.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!ENVELOPE_FIELDS.contains(name)) {
                errors.add(new FieldError(RequestReader.join(path, name), "unknown field '" + name + "'"));
            }
        }
        JsonNode type = body.get("event_type");
        if (type != null && !expectedType.equals(type.asText())) {
            errors.add(new FieldError(RequestReader.join(path, "event_type"), "must be " + expectedType));
        }
        JsonNode level = body.get("level");
        if (level != null && !LEVELS.contains(level.asText())) {
            errors.add(new FieldError(RequestReader.join(path, "level"), "must be one of info, warn, error"));
        }
        if (errors.size() > before) {
            return null;
        }
        return new SeedEnvelope(body.get("payload"), RequestReader.join(path, "payload"),
                level == null ? null : level.asText());
    }

    /** Prefix for paths inside the payload, ending in a dot when not empty. */
    public String fieldPrefix() {
        return prefix.isEmpty() ? "" : prefix + ".";
    }
}
