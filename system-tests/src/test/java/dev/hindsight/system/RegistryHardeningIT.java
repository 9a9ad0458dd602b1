package dev.hindsight.system;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hindsight.testing.TestRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The registry's settings in the Kubernetes manifest do what its comments say, on the real registry: started with the
 * manifest's own APICURIO_* environment (storage aside: the test's registry keeps its data in memory), nothing can be
 * deleted through its API, no client can turn deletion back on at run time, and the global compatibility rule refuses
 * a version that would break readers. A misspelt variable name is ignored by the registry, and fails here.
 */
class RegistryHardeningIT {

    private static final Path MANIFEST = Path.of("..", "deploy", "k8s", "base", "registry", "registry.yaml");
    private static final Pattern ENV = Pattern.compile(
            "- name: (APICURIO_[A-Z0-9_]+)\\s*\\n\\s*value: \"?([^\"\\n]*)\"?");
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @Test
    void theManifestsRegistryDeletesNothingAndKeepsItsSettings() throws Exception {
        Map<String, String> environment = new LinkedHashMap<>();
        Matcher m = ENV.matcher(Files.readString(MANIFEST));
        while (m.find()) {
            if (!m.group(1).startsWith("APICURIO_STORAGE_") && !m.group(1).startsWith("APICURIO_DATASOURCE_")) {
                environment.put(m.group(1), m.group(2));
            }
        }
        assertThat(environment).as("the registry's settings in %s", MANIFEST)
                .containsKeys("APICURIO_REST_DELETION_ARTIFACT_ENABLED", "APICURIO_CONFIG_DYNAMIC_ALLOW_ALL",
                        "APICURIO_RULES_GLOBAL_COMPATIBILITY");

        try (TestRegistry.Instance registry = TestRegistry.startPrivate("hardened", Map.of(), environment)) {
            String base = registry.url();
            assertThat(send("POST", base + "/groups/hindsight/artifacts", artifact("a-value", "a"))).isEqualTo(200);

            assertThat(List.of(
                    send("DELETE", base + "/groups/hindsight/artifacts/a-value/versions/1", null),
                    send("DELETE", base + "/groups/hindsight/artifacts/a-value", null),
                    send("DELETE", base + "/groups/hindsight", null)))
                    .as("deleting a version, an artifact, a group").containsOnly(405);
            assertThat(send("PUT", base + "/admin/config/properties/apicurio.rest.deletion.artifact.enabled",
                    "{\"value\":\"true\"}")).as("turning deletion on at run time").isNotIn(200, 204);
            assertThat(send("DELETE", base + "/groups/hindsight/artifacts/a-value", null))
                    .as("deleting after that attempt").isEqualTo(405);

            // A new version without a default for its new field cannot read the old records: BACKWARD_TRANSITIVE.
            String breaking = "{\"content\":{\"content\":\"{\\\"type\\\":\\\"record\\\",\\\"name\\\":\\\"R\\\","
                    + "\\\"fields\\\":[{\\\"name\\\":\\\"a\\\",\\\"type\\\":\\\"string\\\"},{\\\"name\\\":\\\"b\\\","
                    + "\\\"type\\\":\\\"string\\\"}]}\",\"contentType\":\"application/json\"}}";
            assertThat(send("POST", base + "/groups/hindsight/artifacts/a-value/versions", breaking))
                    .as("a version that breaks readers").isEqualTo(409);
        }
    }

    private static String artifact(String id, String field) {
        return "{\"artifactId\":\"" + id + "\",\"artifactType\":\"AVRO\",\"firstVersion\":{\"content\":{\"content\":"
                + "\"{\\\"type\\\":\\\"record\\\",\\\"name\\\":\\\"R\\\",\\\"fields\\\":[{\\\"name\\\":\\\"" + field
                + "\\\",\\\"type\\\":\\\"string\\\"}]}\",\"contentType\":\"application/json\"}}}";
    }

    private static int send(String method, String url, String json) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).header("Content-Type", "application/json");
        request.method(method, json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json));
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }
}
