package dev.hindsight.system;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hindsight.system.Wire.Answer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The demo data {@code ./hindsight up} loads (deploy/local/demo, one directory per seed example), sent the same way
 * through ingest's API (and memory-service's, for memory-&lt;project&gt;.json): what a new user sees first is what the browser tests look at.
 */
final class Demo {

    private Demo() {
    }

    /**
     * Loads every example through {@code ingest} (and its memories through {@code memory}); answers each example's
     * session (or trace) id by directory name.
     */
    static Map<String, String> load(Wire wire, String ingest, String memory) {
        Path root = Path.of(System.getProperty("hindsight.test.demo-dir", "../deploy/local/demo"));
        Map<String, String> sessions = new LinkedHashMap<>();
        try (Stream<Path> dirs = Files.list(root)) {
            for (Path dir : dirs.sorted().toList()) {
                String name = dir.getFileName().toString();
                if (Files.exists(dir.resolve("session.json"))) {
                    String id = post(wire, ingest + "/v1/sessions", dir.resolve("session.json"))
                            .path("session_id").asText();
                    for (String part : List.of("messages", "positions", "activities", "complete")) {
                        if (Files.exists(dir.resolve(part + ".json"))) {
                            post(wire, ingest + "/v1/sessions/" + Wire.encode(id) + "/" + part,
                                    dir.resolve(part + ".json"));
                        }
                    }
                    sessions.put(name, id);
                }
                if (Files.exists(dir.resolve("trace.json"))) {
                    sessions.put(name, post(wire, ingest + "/v1/traces", dir.resolve("trace.json"))
                            .path("trace_id").asText());
                }
                if (Files.exists(dir.resolve("otlp-traces.json"))) {
                    JsonNode answer = post(wire, ingest + "/otlp/v1/traces", dir.resolve("otlp-traces.json"));
                    if (answer.size() > 0) {
                        throw new IllegalStateException("spans of " + dir + " refused: " + answer);
                    }
                    sessions.put(name, conversationId(dir.resolve("otlp-traces.json")));
                }
                if (Files.exists(dir.resolve("decision-set.json"))) {
                    post(wire, ingest + "/v1/decision-sets", dir.resolve("decision-set.json"));
                }
                try (Stream<Path> signals = Files.list(dir)) {
                    for (Path signal : signals.filter(f -> f.getFileName().toString().startsWith("signal-")).sorted()
                            .toList()) {
                        post(wire, ingest + "/v1/behavior-signals", signal);
                    }
                }
                try (Stream<Path> memories = Files.list(dir)) {
                    for (Path file : memories.filter(f -> f.getFileName().toString().startsWith("memory-")).sorted()
                            .toList()) {
                        String project = file.getFileName().toString().replaceFirst("^memory-", "")
                                .replaceFirst("\\.json$", "");
                        post(wire, memory + "/v1/projects/" + Wire.encode(project) + "/memories", file);
                    }
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("Cannot read the demo data under " + root.toAbsolutePath(), e);
        }
        return sessions;
    }

    /** The session an OTLP export names: the first gen_ai.conversation.id among its spans. */
    private static String conversationId(Path file) throws IOException {
        for (JsonNode resource : Wire.JSON.readTree(file.toFile()).path("resourceSpans")) {
            for (JsonNode scope : resource.path("scopeSpans")) {
                for (JsonNode span : scope.path("spans")) {
                    for (JsonNode attribute : span.path("attributes")) {
                        if (attribute.path("key").asText().equals("gen_ai.conversation.id")) {
                            return attribute.path("value").path("stringValue").asText();
                        }
                    }
                }
            }
        }
        throw new IllegalStateException(file + " names no gen_ai.conversation.id");
    }

    private static JsonNode post(Wire wire, String url, Path file) {
        try {
            Answer answer = wire.post(url, "application/json", Files.readString(file));
            if (answer.status() / 100 != 2) {
                throw new IllegalStateException("POST " + url + " (" + file + ") answered " + answer);
            }
            return answer.body();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
