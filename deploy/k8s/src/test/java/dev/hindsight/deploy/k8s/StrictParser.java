package dev.hindsight.deploy.k8s;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.batch.v1.CronJob;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.strimzi.api.kafka.model.kafka.Kafka;
import io.strimzi.api.kafka.model.nodepool.KafkaNodePool;
import io.strimzi.api.kafka.model.topic.KafkaTopic;
import io.strimzi.api.kafka.model.user.KafkaUser;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads a kustomize output into the Kubernetes object model, strictly: every document must be a kind Hindsight
 * deploys, every field must be one the model knows, and every value of the type the model gives it. The fabric8 and Strimzi models keep unknown fields in
 * {@code additionalProperties} instead of failing, so after binding each object graph is walked and any such field
 * (a typo, a wrong indentation, a field of another API version) is an error naming its path.
 */
final class StrictParser {

    static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    // Scalars keep their JSON type: the API server refuses replicas: "2", where Jackson would quietly read 2.
    private static final ObjectMapper JSON = JsonMapper.builder()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, true)
            .configure(MapperFeature.ALLOW_COERCION_OF_SCALARS, false)
            .build();

    /** Kinds with a Java model: bound to it. */
    private static final Map<String, Class<?>> TYPED = Map.ofEntries(
            Map.entry("v1/Namespace", Namespace.class),
            Map.entry("v1/ConfigMap", ConfigMap.class),
            Map.entry("v1/Secret", Secret.class),
            Map.entry("v1/Service", Service.class),
            Map.entry("apps/v1/Deployment", Deployment.class),
            Map.entry("batch/v1/CronJob", CronJob.class),
            Map.entry("networking.k8s.io/v1/NetworkPolicy", NetworkPolicy.class),
            Map.entry("policy/v1/PodDisruptionBudget", PodDisruptionBudget.class),
            Map.entry("autoscaling/v2/HorizontalPodAutoscaler", HorizontalPodAutoscaler.class),
            Map.entry("kafka.strimzi.io/v1beta2/Kafka", Kafka.class),
            Map.entry("kafka.strimzi.io/v1beta2/KafkaNodePool", KafkaNodePool.class),
            Map.entry("kafka.strimzi.io/v1beta2/KafkaTopic", KafkaTopic.class),
            Map.entry("kafka.strimzi.io/v1beta2/KafkaUser", KafkaUser.class));

    /**
     * Custom resources without a Java model on Maven Central: kept as trees, checked against their operators' published
     * CRD schemas ({@link CrdSchemas}) and by Invariants.
     */
    static final Set<String> GENERIC = Set.of(
            "postgresql.cnpg.io/v1/Cluster",
            "postgresql.cnpg.io/v1/Database",
            "postgresql.cnpg.io/v1/ScheduledBackup",
            "barmancloud.cnpg.io/v1/ObjectStore",
            "keda.sh/v1alpha1/ScaledObject",
            "keda.sh/v1alpha1/TriggerAuthentication",
            "monitoring.coreos.com/v1/ServiceMonitor",
            "monitoring.coreos.com/v1/PodMonitor",
            "monitoring.coreos.com/v1/PrometheusRule");

    private StrictParser() {
    }

    /** Every document of a YAML stream (empty documents skipped), in order. */
    static List<JsonNode> documents(String yaml) {
        List<JsonNode> docs = new ArrayList<>();
        try (MappingIterator<JsonNode> it = YAML.readerFor(JsonNode.class).readValues(yaml)) {
            while (it.hasNext()) {
                JsonNode node = it.next();
                if (node != null && !node.isNull() && !node.isMissingNode() && !node.isEmpty()) {
                    docs.add(node);
                }
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("Not YAML: " + e.getMessage(), e);
        }
        return docs;
    }

    static List<Manifest> parse(String yaml) {
        return documents(yaml).stream().map(StrictParser::read).toList();
    }

    /** One document into the model; throws naming the document and every field the model does not know. */
    static Manifest read(JsonNode node) {
        String apiVersion = node.path("apiVersion").asText("");
        String kind = node.path("kind").asText("");
        String name = node.path("metadata").path("name").asText("");
        String id = kind + "/" + (name.isEmpty() ? "<no name>" : name);
        if (name.isEmpty()) {
            throw new IllegalArgumentException(id + ": metadata.name is missing");
        }
        String key = apiVersion + "/" + kind;
        Class<?> type = TYPED.get(key);
        if (type == null && !GENERIC.contains(key)) {
            throw new IllegalArgumentException(id + ": " + key + " is not a kind Hindsight deploys (known: "
                    + TYPED.keySet() + " " + GENERIC + ")");
        }
        Object typed;
        try {
            Class<?> target = type == null ? GenericKubernetesResource.class : type;
            typed = JSON.treeToValue(node, target);
        } catch (IOException e) {
            throw new IllegalArgumentException(id + ": does not bind to " + key + ": " + e.getMessage(), e);
        }
        if (type != null) {
            List<String> unknown = new ArrayList<>();
            unknownFields(typed, "", unknown);
            if (!unknown.isEmpty()) {
                throw new IllegalArgumentException(id + ": fields the " + key + " model does not know: " + unknown);
            }
        }
        return new Manifest(apiVersion, kind, name, node, typed);
    }

    /** Collects the path of every field kept in an {@code additionalProperties} map anywhere under {@code value}. */
    static void unknownFields(Object value, String path, List<String> out) {
        if (value == null) {
            return;
        }
        if (value instanceof Collection<?> items) {
            int i = 0;
            for (Object item : items) {
                unknownFields(item, path + "[" + i++ + "]", out);
            }
            return;
        }
        if (value instanceof Map<?, ?> map) {
            for (Map.Entry<?, ?> e : map.entrySet()) {
                unknownFields(e.getValue(), path + "." + e.getKey(), out);
            }
            return;
        }
        if (!isModel(value.getClass())) {
            return;
        }
        for (Method getter : value.getClass().getMethods()) {
            if (getter.getParameterCount() != 0 || !getter.getName().startsWith("get")) {
                continue;
            }
            boolean extra = getter.getName().equals("getAdditionalProperties");
            Class<?> returns = getter.getReturnType();
            if (!extra && !isModel(returns) && !Collection.class.isAssignableFrom(returns)
                    && !Map.class.isAssignableFrom(returns)) {
                continue;
            }
            Object child;
            try {
                child = getter.invoke(value);
            } catch (IllegalAccessException | InvocationTargetException e) {
                continue;
            }
            if (extra) {
                if (child instanceof Map<?, ?> fields) {
                    fields.keySet().forEach(k -> out.add(path.isEmpty() ? String.valueOf(k) : path.substring(1) + "." + k));
                }
            } else {
                String field = Character.toLowerCase(getter.getName().charAt(3)) + getter.getName().substring(4);
                unknownFields(child, path + "." + field, out);
            }
        }
    }

    private static boolean isModel(Class<?> type) {
        String name = type.getName();
        return name.startsWith("io.fabric8.kubernetes.api.model") || name.startsWith("io.strimzi.api.");
    }
}
