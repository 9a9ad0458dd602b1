package dev.hindsight.ingest.session;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hindsight.events.reasoning.CommandRun;
import dev.hindsight.events.reasoning.FileEdit;
import dev.hindsight.events.reasoning.ThoughtLog;
import dev.hindsight.platform.problem.Problem.FieldError;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The trace event payloads (design.md § Events): {@code thought_log} (thought_text), {@code file_edit} (file_path,
 * content_diff) and {@code command_run} (command_text, working_directory, exit_code, stdout, stderr). Reports every
 * missing, mistyped or unknown field with its path.
 */
final class ActivityPayloads {

    static final int MAX_TEXT = 1_048_576;
    private static final Map<String, Set<String>> FIELDS = Map.of(
            "thought_log", Set.of("thought_text"),
            "file_edit", Set.of("file_path", "content_diff"),
            "command_run", Set.of("command_text", "working_directory", "exit_code", "stdout", "stderr"));

    private ActivityPayloads() {
    }

    /** The activity record for {@code type}, or null when {@code errors} received the reasons. */
    public static Object read(String type, JsonNode payload, String typePath, String path, List<FieldError> errors) {
        Set<String> allowed = FIELDS.get(type);
        if (allowed == null) {
            errors.add(new FieldError(typePath, "must be one of thought_log, file_edit, command_run"));
            return null;
        }
        if (payload == null || !payload.isObject()) {
            errors.add(new FieldError(path, "must be an object"));
            return null;
        }
        int before = errors.size();
        for (Iterator<String> names = payload.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!allowed.contains(name)) {
                errors.add(new FieldError(path + "." + name, "unknown field for " + type));
            }
        }
        Object activity = switch (type) {
            case "thought_log" -> ThoughtLog.newBuilder()
                    .setThoughtText(text(payload, "thought_text", true, path, errors)).build();
            case "file_edit" -> FileEdit.newBuilder()
                    .setFilePath(text(payload, "file_path", true, path, errors))
                    .setContentDiff(text(payload, "content_diff", false, path, errors)).build();
            default -> CommandRun.newBuilder()
                    .setCommandText(text(payload, "command_text", true, path, errors))
                    .setWorkingDirectory(text(payload, "working_directory", false, path, errors))
                    .setExitCode(integer(payload, "exit_code", path, errors))
                    .setStdout(text(payload, "stdout", false, path, errors))
                    .setStderr(text(payload, "stderr", false, path, errors)).build();
        };
        return errors.size() == before ? activity : null;
    }

    private static String text(JsonNode payload, String field, boolean required, String path,
            List<FieldError> errors) {
        JsonNode value = payload.get(field);
        if (value == null || value.isNull()) {
            if (required) {
                errors.add(new FieldError(path + "." + field, "required"));
                return "";
            }
            return null;
        }
        if (!value.isTextual()) {
            errors.add(new FieldError(path + "." + field, "must be a string"));
            return required ? "" : null;
        }
        if (value.textValue().length() > MAX_TEXT) {
            errors.add(new FieldError(path + "." + field, "must be at most " + MAX_TEXT + " characters"));
        }
        if (required && value.textValue().isBlank()) {
            errors.add(new FieldError(path + "." + field, "must not be blank"));
        }
        return value.textValue();
    }

    private static Integer integer(JsonNode payload, String field, String path, List<FieldError> errors) {
        JsonNode value = payload.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.canConvertToInt() || !value.isIntegralNumber()) {
            errors.add(new FieldError(path + "." + field, "must be an integer"));
            return null;
        }
        return value.intValue();
    }
}
