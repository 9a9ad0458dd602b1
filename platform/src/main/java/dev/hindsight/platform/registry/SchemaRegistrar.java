package dev.hindsight.platform.registry;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.apache.avro.Schema;

/**
 * Registers a topic's value schema in Apicurio Registry (core API v3) and keeps its compatibility rule at
 * BACKWARD_TRANSITIVE, so no producer can ever publish a schema that an old event could not be read with.
 * An incompatible schema is refused by the registry and surfaces here as {@link IncompatibleSchemaException}.
 */
public final class SchemaRegistrar {

    /** Compatibility every Hindsight topic is held to: new readers must read every earlier version. */
    public static final String COMPATIBILITY = "BACKWARD_TRANSITIVE";

    private final HttpClient http;
    private final URI baseUri;
    private final ObjectMapper json = new ObjectMapper();

    /** @param registryUrl the core API root, e.g. {@code http://localhost:8081/apis/registry/v3} */
    public SchemaRegistrar(String registryUrl) {
        this.baseUri = URI.create(registryUrl.endsWith("/") ? registryUrl : registryUrl + "/");
        this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    }

    /** Thrown when the registry refuses a schema because of a rule (409) or invalid content (400). */
    public static class IncompatibleSchemaException extends RuntimeException {
        public IncompatibleSchemaException(String message) {
            super(message);
        }
    }

    /**
     * Makes sure the artifact exists, holds BACKWARD_TRANSITIVE compatibility, and has {@code schema} as a version
     * (an identical schema is found, not duplicated). Safe to call on every start-up.
     */
    public void register(String groupId, String artifactId, Schema schema) {
        createArtifactIfAbsent(groupId, artifactId, schema);
        ensureCompatibilityRule(groupId, artifactId);
        // Added after the rule, so a changed schema is checked against every version before it.
        addVersionIfNew(groupId, artifactId, schema);
    }

    /**
     * Makes {@code schema} a version of the artifact unless one with this exact content exists: the registry answers
     * the existing version, or checks the new one against the artifact's rules and adds it. A writer registers its
     * schemas at every start, so a plain "add a version" would pile up one identical version per pod start.
     */
    public void addVersionIfNew(String groupId, String artifactId, Schema schema) {
        HttpResponse<String> response = send("POST", "groups/" + encode(groupId)
                + "/artifacts?ifExists=FIND_OR_CREATE_VERSION", artifact(artifactId, schema));
        if (response.statusCode() == 409 && response.body().contains("RuleViolation")) {
            throw new IncompatibleSchemaException("Registry refused a new version of " + artifactId + ": "
                    + response.body());
        }
        if (response.statusCode() / 100 != 2) {
            throw failure("add a version to " + artifactId, response);
        }
    }

    /** Creates the artifact with {@code schema} as its first version, unless it exists (then changes nothing). */
    private void createArtifactIfAbsent(String groupId, String artifactId, Schema schema) {
        HttpResponse<String> response = send("POST", "groups/" + encode(groupId) + "/artifacts",
                artifact(artifactId, schema));
        if (response.statusCode() == 409 && response.body().contains("ArtifactAlreadyExists")) {
            return;
        }
        if (response.statusCode() == 409) {
            throw new IncompatibleSchemaException("Registry refused the schema of " + artifactId + ": "
                    + response.body());
        }
        if (response.statusCode() / 100 != 2) {
            throw failure("register " + artifactId, response);
        }
    }

    private ObjectNode artifact(String artifactId, Schema schema) {
        ObjectNode body = json.createObjectNode();
        body.put("artifactId", artifactId);
        body.put("artifactType", "AVRO");
        ObjectNode content = body.putObject("firstVersion").putObject("content");
        content.put("content", schema.toString());
        content.put("contentType", "application/json");
        return body;
    }

    private void ensureCompatibilityRule(String groupId, String artifactId) {
        ObjectNode rule = json.createObjectNode();
        rule.put("ruleType", "COMPATIBILITY");
        rule.put("config", COMPATIBILITY);
        String rules = artifactPath(groupId, artifactId) + "/rules";
        HttpResponse<String> updated = send("PUT", rules + "/COMPATIBILITY", rule);
        if (updated.statusCode() / 100 == 2) {
            return;
        }
        if (updated.statusCode() != 404) {
            throw failure("update the compatibility rule of " + artifactId, updated);
        }
        HttpResponse<String> created = send("POST", rules, rule);
        if (created.statusCode() / 100 != 2 && created.statusCode() != 409) {
            throw failure("create the compatibility rule of " + artifactId, created);
        }
    }

    /** The compatibility rule currently configured on the artifact, or {@code null} when it has none. */
    public String compatibilityOf(String groupId, String artifactId) {
        HttpResponse<String> response = send("GET", artifactPath(groupId, artifactId) + "/rules/COMPATIBILITY", null);
        if (response.statusCode() == 404) {
            return null;
        }
        if (response.statusCode() / 100 != 2) {
            throw failure("read the compatibility rule of " + artifactId, response);
        }
        try {
            return json.readTree(response.body()).path("config").asText(null);
        } catch (IOException e) {
            throw new IllegalStateException("Registry answered unreadable JSON: " + response.body(), e);
        }
    }

    private static String artifactPath(String groupId, String artifactId) {
        return "groups/" + encode(groupId) + "/artifacts/" + encode(artifactId);
    }

    private HttpResponse<String> send(String method, String path, ObjectNode body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(baseUri.resolve(path))
                .timeout(Duration.ofSeconds(10))
                .header("Accept", "application/json");
        if (body == null) {
            request.method(method, HttpRequest.BodyPublishers.noBody());
        } else {
            request.header("Content-Type", "application/json")
                    .method(method, HttpRequest.BodyPublishers.ofString(body.toString()));
        }
        try {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException("Schema registry unreachable at " + baseUri + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while talking to the schema registry", e);
        }
    }

    private static IllegalStateException failure(String what, HttpResponse<String> response) {
        return new IllegalStateException("Could not " + what + ": registry answered " + response.statusCode() + " "
                + response.body());
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
