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
                        "holds user hindsight_evaluation, not the role evaluation"),
                // images
                broken("a service image by tag in prod", doc("Deployment", "query-service"),
                        d -> container(d).put("image", "registry.example.com/hindsight/query-service:0.1.0-SNAPSHOT"),
                        "by tag: prod pins every service image by digest"),
                brokenIn("dev", "a -SNAPSHOT tag a node keeps once pulled", doc("Deployment", "memory-service"),
                        d -> container(d).put("imagePullPolicy", "IfNotPresent"),
                        "runs the mutable tag 0.1.0-SNAPSHOT with imagePullPolicy IfNotPresent"),
                // scaling
                broken("a misspelt Kafka scaler parameter", doc("ScaledObject", "query-service"),
                        d -> {
                            ObjectNode metadata = (ObjectNode) spec(d).path("triggers").get(0).path("metadata");
                            metadata.set("lagTreshold", metadata.remove("lagThreshold"));
                        },
                        "gives its kafka trigger lagTreshold, which KEDA's Kafka scaler does not read"),
                // Kafka across zones
                broken("brokers that do not know their zone", doc("Kafka", "hindsight"),
                        d -> ((ObjectNode) spec(d).path("kafka")).remove("rack"), "has no rack awareness"),
                broken("brokers evicted by a drain", doc("Kafka", "hindsight"),
                        d -> ((ObjectNode) spec(d).path("kafka").path("template")).remove("podDisruptionBudget"),
                        "lets a drain evict brokers directly"),
                broken("brokers free to share a zone", doc("KafkaNodePool", "brokers"),
                        d -> ((ObjectNode) spec(d).path("template").path("pod")).remove("topologySpreadConstraints"),
                        "KafkaNodePool brokers does not require its pods to spread over zones"),
                broken("a broker with a tenth of a core", doc("KafkaNodePool", "brokers"),
                        d -> ((ObjectNode) spec(d).path("resources").path("requests")).put("cpu", "100m"),
                        "requests 0.1 CPU for a broker"),
                // backups
                broken("no WAL archive", doc("Cluster", "hindsight-pg"), d -> spec(d).remove("plugins"),
                        "Cluster hindsight-pg archives no WAL"),
                broken("WAL archived to a store that is not there", doc("Cluster", "hindsight-pg"),
                        d -> ((ObjectNode) spec(d).path("plugins").get(0).path("parameters"))
                                .put("barmanObjectName", "backups"),
                        "archives WAL to ObjectStore backups, which is not here"),
                broken("no scheduled base backup", doc("ScheduledBackup", "hindsight-pg-daily"), null,
                        "Cluster hindsight-pg has no ScheduledBackup"),
                broken("backups kept for ever", doc("ObjectStore", "hindsight-backups"),
                        d -> spec(d).remove("retentionPolicy"), "ObjectStore hindsight-backups has no retentionPolicy"),
                broken("object store credentials under another key", doc("ObjectStore", "hindsight-backups"),
                        d -> ((ObjectNode) spec(d).path("configuration").path("s3Credentials").path("accessKeyId"))
                                .put("key", "AWS_ACCESS_KEY_ID"),
                        "ObjectStore hindsight-backups needs key AWS_ACCESS_KEY_ID of Secret hindsight-backup-store"),
                broken("no registry export", doc("CronJob", "hindsight-registry-export"), null,
                        "no CronJob exports the registry"),
                broken("an export job that may run as root", doc("CronJob", "hindsight-registry-export"),
                        d -> ((ObjectNode) jobPod(d).path("securityContext")).remove("runAsNonRoot"),
                        "CronJob hindsight-registry-export may run as root"),
                broken("an export job no NetworkPolicy selects", doc("NetworkPolicy", "hindsight-registry-export"), null,
                        "CronJob hindsight-registry-export has no NetworkPolicy"),
                // the registry
                broken("a registry that does not check its database's certificate", doc("Deployment", "hindsight-registry"),
                        d -> container(d).withArray("env").forEach(e -> {
                            if (e.path("name").asText().equals("APICURIO_DATASOURCE_URL")) {
                                ((ObjectNode) e).put("value", "jdbc:postgresql://hindsight-pg-rw:5432/apicurio?sslmode=require");
                            }
                        }),
                        "needs sslmode=verify-full and sslrootcert on a mounted CA"),
                broken("a registry that deletes artifacts", doc("Deployment", "hindsight-registry"),
                        d -> removeEnv(container(d), "APICURIO_REST_DELETION_ARTIFACT_ENABLED"),
                        "does not set APICURIO_REST_DELETION_ARTIFACT_ENABLED=false"),
                broken("a registry whose settings any client can change", doc("Deployment", "hindsight-registry"),
                        d -> removeEnv(container(d), "APICURIO_CONFIG_DYNAMIC_ALLOW_ALL"),
                        "does not set APICURIO_CONFIG_DYNAMIC_ALLOW_ALL=false"),
                broken("a registry open to another namespace", doc("NetworkPolicy", "hindsight-registry"),
                        d -> spec(d).withArray("ingress").addObject().putArray("from").addObject()
                                .putObject("namespaceSelector").putObject("matchLabels")
                                .put("kubernetes.io/metadata.name", "monitoring"),
                        "lets pods outside the namespace reach the registry's read-write API"),
                // probes
                broken("a readiness probe on a path that does not exist", doc("Deployment", "query-service"),
                        d -> ((ObjectNode) container(d).path("readinessProbe").path("httpGet")).put("path", "/q/health/readyy"),
                        "readinessProbe asks /q/health/readyy, not the ready health check /q/health/ready"),
                broken("a liveness probe on a port nobody listens on", doc("Deployment", "memory-service"),
                        d -> ((ObjectNode) container(d).path("livenessProbe").path("httpGet")).put("port", 8080),
                        "livenessProbe asks port 8080, on which the container does not listen"),
                // Kafka over TLS
                broken("a plain-text listener", doc("Kafka", "hindsight"),
                        d -> ((ObjectNode) spec(d).path("kafka").path("listeners").get(0)).put("tls", false),
                        "listener tls speaks plain text"),
                broken("services that do not encrypt", doc("ConfigMap", "hindsight-config"),
                        d -> ((ObjectNode) d.path("data")).put("KAFKA_SECURITY_PROTOCOL", "SASL_PLAINTEXT"),
                        "with SASL_PLAINTEXT: they need SASL_SSL on the port of a TLS listener"),
                // NetworkPolicy rules
                broken("a policy opening a port its pods do not listen on", doc("NetworkPolicy", "query-service"),
                        d -> ((ObjectNode) spec(d).path("ingress").get(0).path("ports").get(0)).put("port", 8080),
                        "NetworkPolicy query-service lets traffic in on port 8080, on which its pods do not listen"),
                broken("egress to the registry on the wrong port", doc("NetworkPolicy", "ingest-service"),
                        d -> spec(d).path("egress").forEach(rule -> {
                            if (rule.path("to").get(0).path("podSelector").path("matchLabels")
                                    .path("app.kubernetes.io/name").asText().equals("hindsight-registry")) {
                                ((ObjectNode) rule.path("ports").get(0)).put("port", 8081);
                            }
                        }),
                        "on port 8081, on which those pods do not listen"),
                broken("egress to pods that do not exist", doc("NetworkPolicy", "ingest-service"),
                        d -> spec(d).path("egress").forEach(rule -> {
                            ObjectNode labels = (ObjectNode) rule.path("to").get(0).path("podSelector").path("matchLabels");
                            if (labels.path("app.kubernetes.io/name").asText().equals("query-service")) {
                                labels.put("app.kubernetes.io/name", "query");
                            }
                        }),
                        "which selects no pod of this overlay"),
                // metric names
                broken("a dashboard panel on a metric nothing exports", doc("ConfigMap", "hindsight-grafana-dashboard"),
                        d -> replaceInData(d, "container_memory_working_set_bytes", "process_resident_memory_bytes"),
                        "reads process_resident_memory_bytes, which nothing Hindsight deploys or relies on exports"),
                broken("a dashboard panel on a misspelt Hindsight meter", doc("ConfigMap", "hindsight-grafana-dashboard"),
                        d -> replaceInData(d, "hindsight_dead_letters_total", "hindsight_deadletters_total"),
                        "reads hindsight_deadletters_total"),
                broken("an alert on a misspelt exporter metric", doc("PrometheusRule", "hindsight"),
                        d -> ((ObjectNode) spec(d).path("groups").get(0).path("rules").get(0)).put("expr",
                                "sum by (topic) (increase(kafka_topic_partition_current_offsets[15m])) > 0"),
                        "alert HindsightDeadLetters reads kafka_topic_partition_current_offsets"));
    }

    private static void replaceInData(ObjectNode configMap, String from, String to) {
        ObjectNode data = (ObjectNode) configMap.path("data");
        List<String> keys = new ArrayList<>();
        data.fieldNames().forEachRemaining(keys::add);
        for (String k : keys) {
            assertThat(data.path(k).asText()).as("the dashboard has %s", from).contains(from);
            data.put(k, data.path(k).asText().replace(from, to));
        }
    }

    @ParameterizedTest(name = "{1} ({0})")
    @MethodSource("breakages")
    void isCaught(String overlay, String what, Target target, Consumer<ObjectNode> change, String expected) {
        List<Manifest> docs = new ArrayList<>();
        boolean found = false;
        for (Manifest doc : Rendered.manifests(overlay)) {
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
        assertThat(found).as("the %s overlay has %s", overlay, target).isTrue();

        List<String> violations = Rendered.violations(overlay, docs);

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
    void aValueOfAnotherTypeIsRefused() {
        JsonNode deployment = Rendered.manifests("prod").stream().map(Manifest::raw)
                .filter(doc("Deployment", "hindsight-registry")::matches).findFirst().orElseThrow().deepCopy();
        ((ObjectNode) deployment.path("spec")).put("replicas", "2");

        assertThatThrownBy(() -> StrictParser.read(deployment))
                .hasMessageContaining("Deployment/hindsight-registry: does not bind")
                .hasMessageContaining("replicas");
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
        return brokenIn("prod", what, target, change, expected);
    }

    private static Arguments brokenIn(String overlay, String what, Target target, Consumer<ObjectNode> change,
            String expected) {
        return Arguments.of(overlay, what, target, change, expected);
    }

    private static ObjectNode jobPod(ObjectNode cronJob) {
        return (ObjectNode) cronJob.path("spec").path("jobTemplate").path("spec").path("template").path("spec");
    }

    private static void removeEnv(ObjectNode container, String name) {
        ArrayNode env = container.withArray("env");
        for (int i = env.size() - 1; i >= 0; i--) {
            if (env.get(i).path("name").asText().equals(name)) {
                env.remove(i);
            }
        }
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
