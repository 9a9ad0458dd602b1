package dev.hindsight.deploy.k8s;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The checks can fail: the prod overlay, broken in one place the way a hurried edit would break it, is caught, and the
 * message names what is wrong.
 */
class BrokenManifestsTest {

    static Stream<Arguments> breakages() {
        return Stream.of(
                broken("a probe removed", doc("Deployment", "query-service"),
                        d -> container(d).remove("readinessProbe"),
                        "Deployment query-service, container query-service has no readinessProbe"),
                broken("a limit removed", doc("Deployment", "memory-service"),
                        d -> ((ObjectNode) container(d).path("resources")).remove("limits"),
                        "container memory-service has no memory limit"),
                broken("too short a grace period to finish requests in flight", doc("Deployment", "ingest-service"),
                        d -> ((ObjectNode) d.path("spec").path("template").path("spec"))
                                .remove("terminationGracePeriodSeconds"),
                        "Deployment ingest-service gives a stopping pod 30 s; it needs 40"),
                broken("no shutdown delay", doc("ConfigMap", "hindsight-config"),
                        d -> ((ObjectNode) d.path("data")).remove("QUARKUS_SHUTDOWN_DELAY"),
                        "hindsight-config sets no QUARKUS_SHUTDOWN_DELAY"),
                broken("a service account token mounted", doc("Deployment", "query-service"),
                        d -> ((ObjectNode) d.path("spec").path("template").path("spec"))
                                .remove("automountServiceAccountToken"),
                        "Deployment query-service mounts a service account token it never uses"),
                broken("an alert on a maximum that decays when a consumer stalls", doc("PrometheusRule", "hindsight"),
                        d -> ((ObjectNode) spec(d).path("groups").get(0).path("rules").get(2))
                                .put("expr", "max by (job, topic) (hindsight_consumer_event_age_seconds_max) > 60"),
                        "PrometheusRule hindsight alerts on hindsight_consumer_event_age_seconds_max"),
                broken("a monitor Prometheus would not select", doc("ServiceMonitor", "hindsight-services"),
                        d -> ((ObjectNode) d.path("metadata").path("labels")).remove("release"),
                        "ServiceMonitor hindsight-services has no release label"),
                broken("an image tagged latest", doc("Deployment", "ingest-service"),
                        d -> container(d).put("image", "registry.example.com/hindsight/ingest-service:latest"),
                        "never latest"),
                broken("an image not at the project version", doc("Deployment", "query-service"),
                        d -> container(d).put("image", "registry.example.com/hindsight/query-service:0.0.9"),
                        "not the project version"),
                broken("a source topic's KafkaTopic deleted", doc("KafkaTopic", "hindsight.signals.v1"), null,
                        "HindsightTopic.SIGNALS (hindsight.signals.v1, written by ingest-service) has no KafkaTopic"),
                broken("a dead-letter topic deleted", doc("KafkaTopic", "hindsight.query.insights.dlq"), null,
                        "query-service dead-letters to hindsight.query.insights.dlq, which has no KafkaTopic"),
                broken("a topic with other partitions", doc("KafkaTopic", "hindsight.decisions.v1"),
                        d -> spec(d).put("partitions", 12), "KafkaTopic hindsight.decisions.v1 has 12 partitions"),
                broken("a dead-letter topic kept forever", doc("KafkaTopic", "hindsight.evaluation.audit.dlq"),
                        d -> ((ObjectNode) spec(d).path("config")).put("retention.ms", -1),
                        "needs a finite retention.ms"),
                broken("a source topic that expires", doc("KafkaTopic", "hindsight.reasoning.v1"),
                        d -> ((ObjectNode) spec(d).path("config")).put("retention.ms", 604800000),
                        "is a source topic"),
                broken("a topic that takes only Kafka's default 1 MiB", doc("KafkaTopic", "hindsight.query.reasoning.dlq"),
                        d -> ((ObjectNode) spec(d).path("config")).remove("max.message.bytes"),
                        "KafkaTopic hindsight.query.reasoning.dlq takes events up to 1048588 bytes"),
                broken("one replica in prod", doc("KafkaTopic", "hindsight.insights.v1"),
                        d -> spec(d).put("replicas", 1), "must have 3 replicas and min.insync.replicas 2 in prod"),
                broken("a service allowed to write another's topic", doc("KafkaUser", "query-service"),
                        d -> acls(d).addObject().<ObjectNode>set("resource", resource("topic", "hindsight.reasoning.v1"))
                                .putArray("operations").add("Write"),
                        "KafkaUser query-service may [WRITE] topic hindsight.reasoning.v1, which it does not own"),
                broken("a transactional producer without its transactional-id ACL", doc("KafkaUser", "ingest-service"),
                        d -> removeAcl(d, "hindsight-ingest-"),
                        "KafkaUser ingest-service has no ACL for its transactional.id hindsight-ingest-${quarkus.uuid}"),
                broken("a consumer without its read ACL", doc("KafkaUser", "evaluation-service"),
                        d -> removeAcl(d, "hindsight.signals.v1"),
                        "KafkaUser evaluation-service cannot read hindsight.signals.v1"),
                broken("a Secret key that does not exist", doc("Deployment", "evaluation-service"),
                        d -> container(d).withArray("env").forEach(e -> {
                            if (e.path("name").asText().equals("QUARKUS_DATASOURCE_PASSWORD")) {
                                ((ObjectNode) e.path("valueFrom").path("secretKeyRef")).put("key", "passwd");
                            }
                        }),
                        "needs key passwd of Secret hindsight-db-evaluation"),
                broken("a Secret nobody creates", doc("Deployment", "ingest-service"),
                        d -> container(d).withArray("envFrom").addObject().putObject("secretRef").put("name", "forgotten"),
                        "needs Secret forgotten"),
                broken("no default deny", doc("NetworkPolicy", "default-deny-ingress"), null,
                        "no NetworkPolicy denies ingress to every pod by default"),
                broken("a NetworkPolicy removed", doc("NetworkPolicy", "memory-service"), null,
                        "Deployment memory-service has no NetworkPolicy"),
                broken("a PodDisruptionBudget removed", doc("PodDisruptionBudget", "query-service"), null,
                        "Deployment query-service has no PodDisruptionBudget"),
                broken("a single replica in prod", doc("ScaledObject", "evaluation-service"),
                        d -> spec(d).put("minReplicaCount", 1),
                        "Deployment evaluation-service runs 1 replica(s) at minimum"),
                broken("scaling beyond the partitions", doc("ScaledObject", "query-service"),
                        d -> spec(d).put("maxReplicaCount", 12), "may scale to 12 replicas"),
                broken("KEDA given the brokers' short name", doc("ScaledObject", "memory-service"),
                        d -> ((ObjectNode) spec(d).path("triggers").get(0).path("metadata"))
                                .put("bootstrapServers", "hindsight-kafka-bootstrap:9093"),
                        "reads lag from hindsight-kafka-bootstrap:9093, not hindsight-kafka-bootstrap.hindsight.svc:9093"),
                broken("no fallback when the lag cannot be read", doc("ScaledObject", "evaluation-service"),
                        d -> spec(d).remove("fallback"), "ScaledObject evaluation-service needs a fallback"),
                broken("scaling on the wrong group", doc("ScaledObject", "query-service"),
                        d -> ((ObjectNode) spec(d).path("triggers").get(0).path("metadata")).put("consumerGroup", "query"),
                        "ignores the lag of group hindsight-query"),
                broken("an unauthenticated listener", doc("Kafka", "hindsight"),
                        d -> ((ObjectNode) spec(d).path("kafka").path("listeners").get(0)).remove("authentication"),
                        "lets clients in without authentication"),
                broken("a role whose Secret names another user", doc("Cluster", "hindsight-pg"),
                        d -> ((ObjectNode) spec(d).path("managed").path("roles").get(0)).put("name", "evaluation"),
                        "holds user hindsight_evaluation, not the role evaluation"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("breakages")
    void isCaught(String what, Target target, Consumer<ObjectNode> change, String expected) {
        List<Manifest> docs = new ArrayList<>();
        boolean found = false;
        for (Manifest doc : Rendered.manifests("prod")) {
            if (target.matches(doc.raw())) {
                found = true;
                if (change == null) {
                    continue;
                }
                ObjectNode copy = doc.raw().deepCopy();
                change.accept(copy);
                doc = StrictParser.read(copy);
            }
            docs.add(doc);
        }
        assertThat(found).as("the prod overlay has %s", target).isTrue();

        List<String> violations = Rendered.violations("prod", docs);

        assertThat(violations).as("violations found for %s", what).anyMatch(v -> v.contains(expected));
    }

    @Test
    void aFieldTheModelDoesNotKnowIsRefused() {
        JsonNode deployment = Rendered.manifests("prod").stream().map(Manifest::raw)
                .filter(doc("Deployment", "query-service")::matches).findFirst().orElseThrow().deepCopy();
        ObjectNode probe = (ObjectNode) container((ObjectNode) deployment).remove("livenessProbe");
        container((ObjectNode) deployment).set("livenesProbe", probe);

        assertThatThrownBy(() -> StrictParser.read(deployment))
                .hasMessageContaining("Deployment/query-service")
                .hasMessageContaining("spec.template.spec.containers[0].livenesProbe");
    }

    @Test
    void aKindHindsightDoesNotDeployIsRefused() {
        JsonNode job = StrictParser.documents("apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: flyway-init\n").get(0);

        assertThatThrownBy(() -> StrictParser.read(job)).hasMessageContaining("not a kind Hindsight deploys");
    }

    // --- building the breakages ---

    record Target(String kind, String name) {
        boolean matches(JsonNode doc) {
            String named = doc.path("metadata").path("name").asText();
            // A generated ConfigMap's name ends in its content's hash.
            boolean generated = kind.equals("ConfigMap") && named.matches(java.util.regex.Pattern.quote(name)
                    + "-[a-z0-9]{10}");
            return doc.path("kind").asText().equals(kind) && (named.equals(name) || generated);
        }
    }

    private static Target doc(String kind, String name) {
        return new Target(kind, name);
    }

    private static Arguments broken(String what, Target target, Consumer<ObjectNode> change, String expected) {
        return Arguments.of(what, target, change, expected);
    }

    private static ObjectNode spec(ObjectNode doc) {
        return (ObjectNode) doc.path("spec");
    }

    private static ObjectNode container(ObjectNode deployment) {
        return (ObjectNode) deployment.path("spec").path("template").path("spec").path("containers").get(0);
    }

    private static ArrayNode acls(ObjectNode user) {
        return (ArrayNode) user.path("spec").path("authorization").path("acls");
    }

    private static ObjectNode resource(String type, String name) {
        ObjectNode resource = StrictParser.YAML.createObjectNode();
        return resource.put("type", type).put("name", name).put("patternType", "literal");
    }

    private static void removeAcl(ObjectNode user, String topic) {
        ArrayNode acls = acls(user);
        for (int i = acls.size() - 1; i >= 0; i--) {
            if (acls.get(i).path("resource").path("name").asText().equals(topic)) {
                acls.remove(i);
            }
        }
    }
}
