package dev.hindsight.deploy.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every custom resource of both overlays passes its operator's published CRD schema as an API server with strict
 * field validation would check it, and a resource broken the way a hurried edit breaks one does not.
 */
class CrdSchemaTest {

    @ParameterizedTest
    @ValueSource(strings = {"dev", "prod"})
    void everyCustomResourcePassesItsPublishedSchema(String overlay) {
        List<JsonNode> resources = CrdSchemas.customResources(Rendered.manifests(overlay));

        List<String> problems = CrdSchemas.problems(resources);

        assertThat(resources).as("custom resources of %s", overlay).extracting(r -> r.path("kind").asText())
                .contains("Cluster", "Database", "ScaledObject", "TriggerAuthentication");
        assertThat(problems).as("deploy/k8s/overlays/%s against the published CRD schemas:%n  %s", overlay,
                String.join(System.lineSeparator() + "  ", problems)).isEmpty();
    }

    static Stream<Arguments> mistakes() {
        return Stream.of(
                mistake("a misspelt ScaledObject field", "ScaledObject", "query-service",
                        d -> spec(d).put("pollingIntervall", 15),
                        "spec.pollingIntervall: unknown field"),
                mistake("a replica count written as text", "ScaledObject", "memory-service",
                        d -> spec(d).put("minReplicaCount", "2"),
                        "spec.minReplicaCount: must be integer"),
                mistake("a trigger secret reference without its key", "TriggerAuthentication", "hindsight-kafka-keda",
                        d -> ((ObjectNode) spec(d).path("secretTargetRef").get(0)).remove("key"),
                        "spec.secretTargetRef[0]: must have required property key"),
                mistake("a field at the wrong depth of the Cluster", "Cluster", "hindsight-pg",
                        d -> ((ObjectNode) spec(d).path("storage")).put("storageclass", "fast"),
                        "spec.storage.storageclass: unknown field"),
                mistake("a Cluster with no instance", "Cluster", "hindsight-pg",
                        d -> spec(d).put("instances", 0), "spec.instances: must be >= 1"),
                mistake("a backup method CloudNativePG does not have", "ScheduledBackup", "hindsight-pg-daily",
                        d -> spec(d).put("method", "barman"),
                        "spec.method: must be equal to one of the allowed values"),
                mistake("a WAL compression barman-cloud does not have", "ObjectStore", "hindsight-backups",
                        d -> ((ObjectNode) spec(d).path("configuration").path("wal")).put("compression", "zstandard"),
                        "spec.configuration.wal.compression: must be equal to one of the allowed values"),
                mistake("a retention policy in words", "ObjectStore", "hindsight-backups",
                        d -> spec(d).put("retentionPolicy", "30 days"),
                        "spec.retentionPolicy: must match pattern"),
                mistake("a misspelt ServiceMonitor endpoint field", "ServiceMonitor", "hindsight-services",
                        d -> ((ObjectNode) spec(d).path("endpoints").get(0)).set("intervall",
                                ((ObjectNode) spec(d).path("endpoints").get(0)).remove("interval")),
                        "spec.endpoints[0].intervall: unknown field"),
                mistake("an alert duration Prometheus cannot parse", "PrometheusRule", "hindsight",
                        d -> ((ObjectNode) spec(d).path("groups").get(0).path("rules").get(1)).put("for", "ten minutes"),
                        "spec.groups[0].rules[1].for: must match pattern"),
                mistake("a PodMonitor that selects no pods", "PodMonitor", "hindsight-kafka",
                        d -> spec(d).remove("selector"),
                        "spec: must have required property selector"));
    }

    /** All the broken copies checked in one run of the validator, each under a name of its own. */
    private static List<String> problemsOfTheBrokenCopies;

    @ParameterizedTest(name = "{0}")
    @MethodSource("mistakes")
    void isCaught(String what, String kind, String name, Consumer<ObjectNode> change, String expected) {
        String copy = name + "-broken-" + Math.abs(what.hashCode());

        List<String> problems = brokenCopiesChecked().stream().filter(p -> p.startsWith(kind + "/" + copy + ": ")).toList();

        assertThat(problems).as("problems found for %s", what)
                .anyMatch(p -> p.startsWith(kind + "/" + copy + ": " + expected));
    }

    /**
     * The prod overlay's custom resources plus, for each mistake, a broken copy of its resource renamed after the
     * mistake: one validator run instead of one per mistake.
     */
    private static synchronized List<String> brokenCopiesChecked() {
        if (problemsOfTheBrokenCopies == null) {
            List<JsonNode> resources = new ArrayList<>(CrdSchemas.customResources(Rendered.manifests("prod")));
            List<JsonNode> copies = new ArrayList<>();
            mistakes().forEach(args -> {
                Object[] a = args.get();
                String what = (String) a[0];
                String kind = (String) a[1];
                String name = (String) a[2];
                @SuppressWarnings("unchecked")
                Consumer<ObjectNode> change = (Consumer<ObjectNode>) a[3];
                JsonNode original = resources.stream().filter(d -> d.path("kind").asText().equals(kind)
                        && d.path("metadata").path("name").asText().equals(name)).findFirst()
                        .orElseThrow(() -> new AssertionError("the prod overlay has no " + kind + " " + name));
                ObjectNode copy = original.deepCopy();
                change.accept(copy);
                ((ObjectNode) copy.path("metadata")).put("name", name + "-broken-" + Math.abs(what.hashCode()));
                copies.add(copy);
            });
            resources.addAll(copies);
            problemsOfTheBrokenCopies = CrdSchemas.problems(resources);
        }
        return problemsOfTheBrokenCopies;
    }

    private static Arguments mistake(String what, String kind, String name, Consumer<ObjectNode> change, String expected) {
        return Arguments.of(what, kind, name, change, expected);
    }

    private static ObjectNode spec(ObjectNode doc) {
        return (ObjectNode) doc.path("spec");
    }
}
