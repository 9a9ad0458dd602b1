package dev.hindsight.deploy.k8s;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hindsight.events.HindsightTopic;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvFromSource;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.KeyToPath;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.batch.v1.CronJob;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.strimzi.api.kafka.model.kafka.Kafka;
import io.strimzi.api.kafka.model.kafka.KafkaAuthorizationSimple;
import io.strimzi.api.kafka.model.nodepool.KafkaNodePool;
import io.strimzi.api.kafka.model.nodepool.ProcessRoles;
import io.strimzi.api.kafka.model.topic.KafkaTopic;
import io.strimzi.api.kafka.model.user.KafkaUser;
import io.strimzi.api.kafka.model.user.KafkaUserAuthorizationSimple;
import io.strimzi.api.kafka.model.user.KafkaUserScramSha512ClientAuthentication;
import io.strimzi.api.kafka.model.user.acl.AclOperation;
import io.strimzi.api.kafka.model.user.acl.AclResourcePatternType;
import io.strimzi.api.kafka.model.user.acl.AclRule;
import io.strimzi.api.kafka.model.user.acl.AclRuleGroupResource;
import io.strimzi.api.kafka.model.user.acl.AclRuleTopicResource;
import io.strimzi.api.kafka.model.user.acl.AclRuleTransactionalIdResource;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * What an operator relies on in a rendered overlay, each broken rule a sentence naming the resource. The sources of
 * truth are the schemas module (which topics exist and who writes each) and each service's application.properties
 * (what it reads, in which group, where its dead letters go), read as the Deployment's environment overrides them.
 */
final class Invariants {

    private static final Pattern TIMER_MAX = Pattern.compile("\\b(\\w+_seconds_max)\\b");
    private static final Pattern DIGEST = Pattern.compile("@sha256:[0-9a-f]{64}$");

    private static final String ZONE = "topology.kubernetes.io/zone";

    /** A JMX exporter rule whose first group lists names: its pattern's "name=(A|B)" and its output name. */
    private static final Pattern JMX_RULE = Pattern.compile("pattern: [^\\n]*?name=\\(([A-Za-z|]+)\\)[^\\n]*\\n\\s*name: (\\S+)");

    /**
     * Series that components other than Hindsight's code export, which the dashboard and alerts read, with who exports
     * them. Not a prefix list: a misspelt or retired name (process_resident_memory_bytes under Micrometer) must fail.
     */
    static final Map<String, String> EXTERNAL_METRICS = Map.ofEntries(
            Map.entry("up", "Prometheus, per scrape target"),
            Map.entry("http_server_requests_seconds_count", "Quarkus Micrometer, HTTP server"),
            Map.entry("http_server_requests_seconds_sum", "Quarkus Micrometer, HTTP server"),
            Map.entry("http_server_requests_seconds_max", "Quarkus Micrometer, HTTP server"),
            Map.entry("http_server_requests_seconds_bucket", "Quarkus Micrometer, HTTP server (histograms on)"),
            Map.entry("jvm_memory_used_bytes", "Micrometer JVM memory binder"),
            Map.entry("jvm_memory_max_bytes", "Micrometer JVM memory binder"),
            Map.entry("kafka_consumergroup_lag", "Kafka Exporter"),
            Map.entry("kafka_consumergroup_current_offset", "Kafka Exporter"),
            Map.entry("kafka_topic_partition_current_offset", "Kafka Exporter"),
            Map.entry("container_memory_working_set_bytes", "kubelet (cAdvisor)"),
            Map.entry("container_cpu_usage_seconds_total", "kubelet (cAdvisor)"),
            Map.entry("kube_cronjob_status_last_successful_time", "kube-state-metrics"),
            Map.entry("kube_deployment_status_replicas_available", "kube-state-metrics"),
            Map.entry("cnpg_pg_stat_archiver_seconds_since_last_archival", "CloudNativePG default queries (pg_stat_archiver)"),
            Map.entry("cnpg_pg_replication_in_recovery", "CloudNativePG default queries (pg_replication)"));
    private static final String BARMAN_PLUGIN = "barman-cloud.cloudnative-pg.io";
    private static final String REGISTRY_URL = "http://hindsight-registry:8080/apis/registry/v3";

    /** The trigger metadata KEDA's Kafka scaler reads (keda.sh/docs, scalers/apache-kafka). */
    static final Set<String> KAFKA_SCALER_PARAMETERS = new java.util.TreeSet<>(Set.of("bootstrapServers",
            "bootstrapServersFromEnv", "consumerGroup", "consumerGroupFromEnv", "topic", "topicFromEnv",
            "lagThreshold", "activationLagThreshold", "offsetResetPolicy", "allowIdleConsumers",
            "scaleToZeroOnInvalidOffset", "excludePersistentLag", "limitToPartitionsWithLag",
            "ensureEvenDistributionOfPartitions", "partitionLimitation", "version", "sasl", "tls", "unsafeSsl"));

    /** The largest event the services send: hindsight.kafka.max-message-bytes, as the platform defaults it. */
    static final long MAX_EVENT_BYTES = 5_242_880;

    /**
     * Topics a service is announced to write (issue #6) before its configuration has landed: used only
     * while that service declares no Kafka channel at all. memory-service writes hindsight.memory.v1 and dead-letters
     * each of its three channels (reasoning, insights, memories), as its configuration in progress for #6 names them.
     */
    static final Map<String, List<String>> ANNOUNCED_WRITES = Map.of("memory-service", List.of(
            "hindsight.memory.v1", "hindsight.memory.reasoning.dlq", "hindsight.memory.insights.dlq",
            "hindsight.memory.memories.dlq"));

    private static final Set<AclOperation> WRITING = Set.of(AclOperation.WRITE, AclOperation.ALL,
            AclOperation.CREATE, AclOperation.DELETE, AclOperation.ALTER, AclOperation.ALTERCONFIGS);

    private final String overlay;
    private final List<Manifest> docs;
    private final Path root;
    private final List<String> violations = new ArrayList<>();
    private final Map<String, Map<String, String>> secrets = new LinkedHashMap<>();

    /**
     * @param overlay          dev or prod (prod is held to the high-availability rules)
     * @param rendered         the overlay as kustomize renders it
     * @param operatorSecrets  the Secrets create-secrets.sh prints, which an operator creates before applying
     */
    Invariants(String overlay, List<Manifest> rendered, List<Manifest> operatorSecrets, Path root) {
        this.overlay = overlay;
        this.docs = rendered;
        this.root = root;
        Stream.concat(rendered.stream(), operatorSecrets.stream()).filter(m -> m.is("Secret"))
                .forEach(m -> secrets.put(m.name(), secretData(m.as(Secret.class))));
        generatedSecrets().forEach(secrets::putIfAbsent);
    }

    /** Every broken rule; empty when the overlay keeps them all. */
    List<String> check() {
        workloads();
        references();
        topics();
        acls();
        scaling();
        networkPolicies();
        databases();
        kafkaSecurity();
        monitoring();
        registry();
        if (overlay.equals("prod")) {
            highAvailability();
            kafkaAcrossZones();
            backups();
        }
        return List.copyOf(violations);
    }

    // --- workloads: probes, resources, images ------------------------------------------------------------------

    private void workloads() {
        long delay = configMapValue("hindsight-config", "QUARKUS_SHUTDOWN_DELAY")
                .map(Invariants::seconds).orElse(-1L);
        if (delay <= 0) {
            fail("hindsight-config sets no QUARKUS_SHUTDOWN_DELAY: a stopping pod would refuse requests still routed to it");
        }
        Map<String, ServiceConfig> services = services();
        for (Deployment d : all(Deployment.class)) {
            ServiceConfig config = services.get(name(d));
            Long grace = d.getSpec().getTemplate().getSpec().getTerminationGracePeriodSeconds();
            // The shutdown delay, then the requests in flight (quarkus.shutdown.timeout), then closing the clients.
            long needed = config == null ? 0 : delay + config.get("quarkus.shutdown.timeout")
                    .map(Invariants::seconds).orElse(0L) + 5;
            if (grace == null ? needed > 30 : grace < needed) {
                fail("Deployment " + name(d) + " gives a stopping pod " + (grace == null ? 30 : grace) + " s; it needs "
                        + needed + " (shutdown delay, requests in flight, closing its clients)");
            }
            for (Container c : d.getSpec().getTemplate().getSpec().getContainers()) {
                String where = "Deployment " + name(d) + ", container " + c.getName();
                probe(where, c, "liveness", c.getLivenessProbe(), "live");
                probe(where, c, "readiness", c.getReadinessProbe(), "ready");
                probe(where, c, "startup", c.getStartupProbe(), "started");
                var resources = c.getResources();
                if (resources == null || resources.getRequests() == null
                        || !resources.getRequests().containsKey("memory") || !resources.getRequests().containsKey("cpu")) {
                    fail(where + " has no cpu and memory requests");
                }
                if (Repo.SERVICES.contains(name(d))) {
                    serviceImage(where, c);
                }
            }
        }
        for (Pod p : pods()) {
            if (!Boolean.FALSE.equals(p.spec().getAutomountServiceAccountToken())) {
                fail(p.where() + " mounts a service account token it never uses (automountServiceAccountToken: false)");
            }
            var context = p.spec().getSecurityContext();
            if (context == null || !Boolean.TRUE.equals(context.getRunAsNonRoot())) {
                fail(p.where() + " may run as root (securityContext.runAsNonRoot: true)");
            }
            for (Container c : p.containers()) {
                String where = p.where() + ", container " + c.getName();
                String tag = tag(c.getImage());
                if (tag == null || tag.equals("latest")) {
                    fail(where + " runs image " + c.getImage() + ": an image needs a fixed tag, never latest");
                }
                var resources = c.getResources();
                if (resources == null || resources.getLimits() == null || !resources.getLimits().containsKey("memory")) {
                    fail(where + " has no memory limit");
                }
                var security = c.getSecurityContext();
                if (security == null || !Boolean.FALSE.equals(security.getAllowPrivilegeEscalation())
                        || !Boolean.TRUE.equals(security.getReadOnlyRootFilesystem())) {
                    fail(where + " needs allowPrivilegeEscalation: false and readOnlyRootFilesystem: true");
                }
            }
        }
    }

    /**
     * A probe asks the health check of its kind (Quarkus' /q/health/live, /ready, /started for the services; the same
     * three kinds for the registry) on a port the container listens on: a wrong path or port fails every probe, and
     * the pod never becomes ready or is restarted for ever.
     */
    private void probe(String where, Container c, String kind, io.fabric8.kubernetes.api.model.Probe probe, String check) {
        if (probe == null) {
            fail(where + " has no " + kind + "Probe");
            return;
        }
        var http = probe.getHttpGet();
        if (http == null) {
            fail(where + " " + kind + "Probe is not an HTTP health check");
            return;
        }
        boolean service = Repo.SERVICES.stream().anyMatch(svc -> where.equals("Deployment " + svc + ", container " + svc));
        String path = http.getPath() == null ? "" : http.getPath();
        if (service ? !path.equals("/q/health/" + check) : !path.endsWith("/" + check)) {
            fail(where + " " + kind + "Probe asks " + path + ", not the " + check + " health check"
                    + (service ? " /q/health/" + check : ""));
        }
        if (!listensOn(c, http.getPort())) {
            fail(where + " " + kind + "Probe asks port " + portText(http.getPort()) + ", on which the container does not listen");
        }
    }

    private static boolean listensOn(Container c, io.fabric8.kubernetes.api.model.IntOrString port) {
        if (port == null) {
            return false;
        }
        return Optional.ofNullable(c.getPorts()).orElse(List.of()).stream().anyMatch(p -> port.getIntVal() != null
                ? port.getIntVal().equals(p.getContainerPort()) : port.getStrVal().equals(p.getName()));
    }

    private static String portText(io.fabric8.kubernetes.api.model.IntOrString port) {
        return port == null ? "(none)" : port.getIntVal() != null ? port.getIntVal().toString() : port.getStrVal();
    }

    /**
     * A service's image is the project version's build. In prod it is pinned by digest: a digest names one image for
     * ever, so a rebuild changes the pod template and rolls out. A tag may be pushed again: where one is used (dev,
     * the -SNAPSHOT version), every pod start must pull it, or nodes keep running whatever they pulled first.
     */
    private void serviceImage(String where, Container c) {
        String image = c.getImage();
        boolean digest = DIGEST.matcher(image).find();
        if (overlay.equals("prod") && !digest) {
            fail(where + " runs image " + image + " by tag: prod pins every service image by digest (pin-images.sh)");
        }
        if (digest) {
            return;
        }
        String tag = tag(image);
        if (!Repo.version().equals(tag)) {
            fail(where + " runs image " + image + ", not the project version " + Repo.version());
        } else if (tag.endsWith("-SNAPSHOT") && !"Always".equals(c.getImagePullPolicy())) {
            fail(where + " runs the mutable tag " + tag + " with imagePullPolicy " + c.getImagePullPolicy()
                    + ": a node would keep the build it pulled first (Always, or pin a digest)");
        }
    }

    /** A pod template with the resource that holds it: every Deployment's and every CronJob's. */
    record Pod(String where, PodSpec spec, Map<String, String> labels) {
        List<Container> containers() {
            return Stream.concat(Optional.ofNullable(spec.getInitContainers()).orElse(List.of()).stream(),
                    spec.getContainers().stream()).toList();
        }
    }

    private List<Pod> pods() {
        List<Pod> pods = new ArrayList<>();
        for (Deployment d : all(Deployment.class)) {
            pods.add(new Pod("Deployment " + name(d), d.getSpec().getTemplate().getSpec(),
                    d.getSpec().getTemplate().getMetadata().getLabels()));
        }
        for (CronJob j : all(CronJob.class)) {
            var template = j.getSpec().getJobTemplate().getSpec().getTemplate();
            pods.add(new Pod("CronJob " + name(j), template.getSpec(), template.getMetadata().getLabels()));
        }
        return pods;
    }

    /** The tag of an image reference, "@digest" counting as one; null when it has neither. */
    static String tag(String image) {
        if (image == null) {
            return null;
        }
        if (image.contains("@sha256:")) {
            return image.substring(image.indexOf('@') + 1);
        }
        int colon = image.lastIndexOf(':');
        return colon > image.lastIndexOf('/') ? image.substring(colon + 1) : null;
    }

    // --- every Secret and ConfigMap key a workload or custom resource names exists -------------------------------

    private void references() {
        Map<String, Map<String, String>> configMaps = new HashMap<>();
        all(ConfigMap.class).forEach(cm -> configMaps.put(name(cm), cm.getData() == null ? Map.of() : cm.getData()));
        for (Pod p : pods()) {
            PodSpec pod = p.spec();
            String where = p.where();
            for (Container c : p.containers()) {
                for (EnvVar env : Optional.ofNullable(c.getEnv()).orElse(List.of())) {
                    var from = env.getValueFrom();
                    if (from != null && from.getSecretKeyRef() != null && !Boolean.TRUE.equals(from.getSecretKeyRef().getOptional())) {
                        need(secrets, "Secret", from.getSecretKeyRef().getName(), from.getSecretKeyRef().getKey(), where + " env " + env.getName());
                    }
                    if (from != null && from.getConfigMapKeyRef() != null && !Boolean.TRUE.equals(from.getConfigMapKeyRef().getOptional())) {
                        need(configMaps, "ConfigMap", from.getConfigMapKeyRef().getName(), from.getConfigMapKeyRef().getKey(), where + " env " + env.getName());
                    }
                }
                for (EnvFromSource src : Optional.ofNullable(c.getEnvFrom()).orElse(List.of())) {
                    if (src.getSecretRef() != null && !Boolean.TRUE.equals(src.getSecretRef().getOptional())) {
                        need(secrets, "Secret", src.getSecretRef().getName(), null, where + " envFrom");
                    }
                    if (src.getConfigMapRef() != null && !Boolean.TRUE.equals(src.getConfigMapRef().getOptional())) {
                        need(configMaps, "ConfigMap", src.getConfigMapRef().getName(), null, where + " envFrom");
                    }
                }
            }
            for (Volume v : Optional.ofNullable(pod.getVolumes()).orElse(List.of())) {
                if (v.getSecret() != null) {
                    List<KeyToPath> items = Optional.ofNullable(v.getSecret().getItems()).orElse(List.of());
                    need(secrets, "Secret", v.getSecret().getSecretName(), null, where + " volume " + v.getName());
                    items.forEach(i -> need(secrets, "Secret", v.getSecret().getSecretName(), i.getKey(), where + " volume " + v.getName()));
                }
                if (v.getConfigMap() != null) {
                    need(configMaps, "ConfigMap", v.getConfigMap().getName(), null, where + " volume " + v.getName());
                }
            }
        }
        for (Manifest store : kind("ObjectStore")) {
            JsonNode credentials = store.raw().path("spec").path("configuration").path("s3Credentials");
            for (String field : List.of("accessKeyId", "secretAccessKey")) {
                JsonNode ref = credentials.path(field);
                if (!ref.isMissingNode()) {
                    need(secrets, "Secret", ref.path("name").asText(), ref.path("key").asText(), "ObjectStore " + store.name());
                }
            }
        }
        for (Manifest auth : kind("TriggerAuthentication")) {
            for (JsonNode ref : auth.raw().path("spec").path("secretTargetRef")) {
                need(secrets, "Secret", ref.path("name").asText(), ref.path("key").asText(), "TriggerAuthentication " + auth.name());
            }
        }
        for (Manifest cluster : kind("Cluster")) {
            JsonNode spec = cluster.raw().path("spec");
            JsonNode initdb = spec.path("bootstrap").path("initdb");
            if (initdb.has("secret")) {
                role(initdb.path("owner").asText(), initdb.path("secret").path("name").asText(), "Cluster " + cluster.name() + " initdb");
            }
            for (JsonNode role : spec.path("managed").path("roles")) {
                role(role.path("name").asText(), role.path("passwordSecret").path("name").asText(), "Cluster " + cluster.name() + " role " + role.path("name").asText());
            }
        }
    }

    /** A role's credentials Secret exists, has username and password, and its username is the role. */
    private void role(String role, String secret, String where) {
        need(secrets, "Secret", secret, "username", where);
        need(secrets, "Secret", secret, "password", where);
        String user = secrets.getOrDefault(secret, Map.of()).get("username");
        if (user != null && !user.isEmpty() && !user.equals(role)) {
            fail(where + ": Secret " + secret + " holds user " + user + ", not the role " + role);
        }
    }

    private void need(Map<String, Map<String, String>> known, String kind, String name, String key, String where) {
        Map<String, String> data = known.get(name);
        if (data == null) {
            fail(where + " needs " + kind + " " + name + ", which neither the overlay, create-secrets.sh nor an operator provides");
        } else if (key != null && !data.containsKey(key)) {
            fail(where + " needs key " + key + " of " + kind + " " + name + ", which has only " + data.keySet());
        }
    }

    /** Secrets the operators write: Strimzi per KafkaUser and for the cluster CA, CloudNativePG for its CA. */
    private Map<String, Map<String, String>> generatedSecrets() {
        Map<String, Map<String, String>> generated = new HashMap<>();
        for (KafkaUser user : all(KafkaUser.class)) {
            if (user.getSpec().getAuthentication() instanceof KafkaUserScramSha512ClientAuthentication) {
                generated.put(name(user), keys("password", "sasl.jaas.config"));
            }
        }
        for (Kafka kafka : all(Kafka.class)) {
            generated.put(name(kafka) + "-cluster-ca-cert", keys("ca.crt", "ca.p12", "ca.password"));
        }
        for (Manifest cluster : kind("Cluster")) {
            generated.put(cluster.name() + "-ca", keys("ca.crt", "ca.key"));
        }
        return generated;
    }

    // --- topics --------------------------------------------------------------------------------------------------

    private int partitions() {
        return Integer.parseInt(configMapValue("hindsight-config", "HINDSIGHT_KAFKA_PARTITIONS").orElse("6"));
    }

    private Map<String, KafkaTopic> kafkaTopics() {
        return all(KafkaTopic.class).stream().collect(Collectors.toMap(
                t -> Optional.ofNullable(t.getSpec().getTopicName()).orElse(name(t)), Function.identity(), (a, b) -> a));
    }

    private void topics() {
        Map<String, KafkaTopic> topics = kafkaTopics();
        int partitions = partitions();
        int brokers = brokers();
        Set<String> clusters = all(Kafka.class).stream().map(this::name).collect(Collectors.toSet());
        for (HindsightTopic topic : HindsightTopic.values()) {
            if (!topics.containsKey(topic.defaultName())) {
                fail("HindsightTopic." + topic + " (" + topic.defaultName() + ", written by " + topic.writer()
                        + ") has no KafkaTopic");
            }
        }
        Set<String> deadLetterTopics = new LinkedHashSet<>();
        for (ServiceConfig config : services().values()) {
            for (ServiceConfig.Channel channel : config.incoming()) {
                channel.topics().forEach(t -> topicUsed(topics, t, config.service() + " reads", partitions));
                if (channel.deadLetterTopic() != null) {
                    deadLetterTopics.add(channel.deadLetterTopic());
                    topicUsed(topics, channel.deadLetterTopic(), config.service() + " dead-letters to", partitions);
                }
            }
            config.outgoingTopics().forEach(t -> topicUsed(topics, t, config.service() + " writes", partitions));
        }
        ANNOUNCED_WRITES.values().forEach(ts -> ts.stream().filter(t -> t.endsWith(".dlq")).forEach(deadLetterTopics::add));
        for (Map.Entry<String, KafkaTopic> e : topics.entrySet()) {
            String name = e.getKey();
            KafkaTopic topic = e.getValue();
            String where = "KafkaTopic " + name;
            Map<String, Object> config = Optional.ofNullable(topic.getSpec().getConfig()).orElse(Map.of());
            if (!clusters.contains(labels(topic).get("strimzi.io/cluster"))) {
                fail(where + " is not labelled strimzi.io/cluster with a Kafka of this overlay " + clusters);
            }
            if (!Objects.equals(topic.getSpec().getPartitions(), partitions)) {
                fail(where + " has " + topic.getSpec().getPartitions() + " partitions; the services are configured with "
                        + partitions + " (HINDSIGHT_KAFKA_PARTITIONS), and co-partitioned topics need the same count");
            }
            int replicas = Optional.ofNullable(topic.getSpec().getReplicas()).orElse(0);
            int minIsr = Integer.parseInt(String.valueOf(config.getOrDefault("min.insync.replicas", "1")));
            if (replicas > brokers) {
                fail(where + " wants " + replicas + " replicas on " + brokers + " brokers");
            }
            if (replicas > 1 && minIsr >= replicas) {
                fail(where + ": min.insync.replicas " + minIsr + " with " + replicas + " replicas stops producers when one broker is down");
            }
            if (overlay.equals("prod") && (replicas != 3 || minIsr != 2)) {
                fail(where + " must have 3 replicas and min.insync.replicas 2 in prod, has " + replicas + " and " + minIsr);
            }
            long largest = Long.parseLong(String.valueOf(config.getOrDefault("max.message.bytes", "1048588")));
            if (largest < MAX_EVENT_BYTES) {
                fail(where + " takes events up to " + largest + " bytes (max.message.bytes); the services send up to "
                        + MAX_EVENT_BYTES + " (hindsight.kafka.max-message-bytes), so an acknowledged request could "
                        + "carry an event it refuses");
            }
            String cleanup = String.valueOf(config.getOrDefault("cleanup.policy", "delete"));
            long retention = Long.parseLong(String.valueOf(config.getOrDefault("retention.ms", "604800000")));
            if (deadLetterTopics.contains(name) || name.endsWith(".dlq")) {
                if (retention <= 0) {
                    fail(where + " is a dead-letter topic and needs a finite retention.ms, has " + retention);
                }
            } else if (HindsightTopic.byName(name).filter(HindsightTopic::compacted).isPresent()) {
                // The data keys (ADR 0027): a destroyed key's material must leave the disks, its marker stay.
                long lag = Long.parseLong(String.valueOf(config.getOrDefault("max.compaction.lag.ms",
                        String.valueOf(Long.MAX_VALUE))));
                if (!cleanup.equals("compact") || lag > 3_600_000L) {
                    fail(where + " is compacted so that destroyed keys leave the brokers: cleanup.policy compact and "
                            + "max.compaction.lag.ms at most an hour; has " + cleanup + ", " + lag);
                }
            } else if (HindsightTopic.byName(name).isPresent() || isAnnounced(name)) {
                if (retention != -1 || !cleanup.equals("delete")) {
                    fail(where + " is a source topic: every read model is rebuilt from it, so it keeps its history "
                            + "(retention.ms -1, cleanup.policy delete); has " + retention + ", " + cleanup);
                }
            }
        }
    }

    private void topicUsed(Map<String, KafkaTopic> topics, String topic, String who, int partitions) {
        if (!topics.containsKey(topic)) {
            fail(who + " " + topic + ", which has no KafkaTopic (auto-creation is off)");
        }
    }

    private static boolean isAnnounced(String topic) {
        return ANNOUNCED_WRITES.values().stream().anyMatch(ts -> ts.contains(topic));
    }

    private int brokers() {
        return all(KafkaNodePool.class).stream()
                .filter(p -> p.getSpec().getRoles().contains(ProcessRoles.BROKER))
                .mapToInt(p -> p.getSpec().getReplicas()).sum();
    }

    // --- ACLs: each service writes only its own topics ------------------------------------------------------------

    private void acls() {
        Map<String, KafkaUser> users = all(KafkaUser.class).stream().collect(Collectors.toMap(this::name, u -> u));
        Map<String, Integer> writers = new HashMap<>();
        for (ServiceConfig config : services().values()) {
            String svc = config.service();
            KafkaUser user = users.get(svc);
            if (user == null) {
                fail(svc + " has no KafkaUser named " + svc + " (its Deployment reads that user's Secret)");
                continue;
            }
            String where = "KafkaUser " + svc;
            if (!(user.getSpec().getAuthentication() instanceof KafkaUserScramSha512ClientAuthentication)) {
                fail(where + " must authenticate with scram-sha-512 (the services' KAFKA_SASL_MECHANISM)");
            }
            if (!(user.getSpec().getAuthorization() instanceof KafkaUserAuthorizationSimple simple)) {
                fail(where + " has no simple authorization (ACLs)");
                continue;
            }
            Set<String> owned = new LinkedHashSet<>();
            HindsightTopic.writtenBy(svc).forEach(t -> owned.add(t.defaultName()));
            // Every service reads the API keys issued at run time (platform KeyFeed), without a consumer group.
            Set<String> reads = new LinkedHashSet<>(List.of(HindsightTopic.KEYS.defaultName()));
            Set<String> groups = new LinkedHashSet<>();
            for (ServiceConfig.Channel channel : config.incoming()) {
                reads.addAll(channel.topics());
                groups.add(channel.group());
                if (channel.deadLetterTopic() != null) {
                    owned.add(channel.deadLetterTopic());
                }
            }
            Set<String> mayWrite = new LinkedHashSet<>(owned);
            if (config.incoming().isEmpty() && config.outgoingTopics().isEmpty()) {
                mayWrite.addAll(ANNOUNCED_WRITES.getOrDefault(svc, List.of()));
            }
            for (String topic : config.outgoingTopics()) {
                if (!mayWrite.contains(topic)) {
                    fail(svc + " is configured to write " + topic + ", but HindsightTopic does not name it as its writer");
                }
            }
            Set<String> written = new LinkedHashSet<>();
            Set<String> read = new LinkedHashSet<>();
            Set<String> groupsRead = new LinkedHashSet<>();
            for (AclRule rule : simple.getAcls()) {
                Set<AclOperation> ops = new LinkedHashSet<>(rule.getOperations() == null ? List.of() : rule.getOperations());
                boolean writes = ops.stream().anyMatch(WRITING::contains);
                if (rule.getResource() instanceof AclRuleTopicResource topic) {
                    boolean literal = topic.getPatternType() == null || topic.getPatternType() == AclResourcePatternType.LITERAL;
                    if (writes && (!literal || !mayWrite.contains(topic.getName()))) {
                        fail(where + " may " + ops + " topic " + (literal ? "" : "prefix ") + topic.getName()
                                + ", which it does not own (it writes only " + mayWrite + ")");
                    }
                    if (literal && ops.contains(AclOperation.WRITE)) {
                        written.add(topic.getName());
                    }
                    if (literal && ops.contains(AclOperation.READ)) {
                        read.add(topic.getName());
                    }
                } else if (rule.getResource() instanceof AclRuleGroupResource group) {
                    if (ops.contains(AclOperation.READ)) {
                        groupsRead.add(group.getName());
                    }
                } else if (!(rule.getResource() instanceof AclRuleTransactionalIdResource)) {
                    fail(where + " has an ACL on " + rule.getResource().getType() + ", which no service needs");
                }
            }
            written.forEach(t -> writers.merge(t, 1, Integer::sum));
            for (String topic : mayWrite) {
                if (!written.contains(topic) && (owned.contains(topic) || !config.incoming().isEmpty() || !ANNOUNCED_WRITES.containsKey(svc))) {
                    fail(where + " cannot write " + topic + ", which it must write");
                }
            }
            reads.stream().filter(t -> !read.contains(t)).forEach(t -> fail(where + " cannot read " + t + ", which it consumes"));
            groups.stream().filter(g -> !groupsRead.contains(g)).forEach(g -> fail(where + " cannot join consumer group " + g));
            transactionalIds(svc, config, simple, where);
        }
        for (KafkaUser user : users.values()) {
            if (Repo.SERVICES.contains(name(user))) {
                continue;
            }
            if (user.getSpec().getAuthorization() instanceof KafkaUserAuthorizationSimple simple) {
                for (AclRule rule : simple.getAcls()) {
                    if (rule.getOperations().stream().anyMatch(op -> op != AclOperation.DESCRIBE && op != AclOperation.DESCRIBECONFIGS)) {
                        fail("KafkaUser " + name(user) + " is not a service and may only describe, but has " + rule.getOperations());
                    }
                }
            }
        }
        for (HindsightTopic topic : HindsightTopic.values()) {
            int count = writers.getOrDefault(topic.defaultName(), 0);
            if (count != topic.writers().size()) {
                fail(topic.defaultName() + " must have exactly " + topic.writers().size() + " writer(s) " + topic.writers()
                        + "; " + count + " KafkaUsers may write it");
            }
        }
    }

    private void transactionalIds(String svc, ServiceConfig config, KafkaUserAuthorizationSimple simple, String where) {
        List<String> prefixes = simple.getAcls().stream().map(AclRule::getResource)
                .filter(AclRuleTransactionalIdResource.class::isInstance).map(AclRuleTransactionalIdResource.class::cast)
                .map(r -> r.getPatternType() == AclResourcePatternType.PREFIX ? r.getName() : r.getName() + "\u0000").toList();
        for (String channel : config.outgoingChannels()) {
            Optional<String> id = config.get("mp.messaging.outgoing." + channel + ".transactional.id");
            id.ifPresent(value -> {
                String literal = value.contains("${") ? value.substring(0, value.indexOf("${")) : value;
                if (prefixes.stream().noneMatch(p -> literal.startsWith(p.replace("\u0000", "")))) {
                    fail(where + " has no ACL for its transactional.id " + value);
                }
            });
        }
    }

    // --- scaling on the work --------------------------------------------------------------------------------------

    private void scaling() {
        Set<String> deployments = all(Deployment.class).stream().map(this::name).collect(Collectors.toSet());
        String bootstrap = configMapValue("hindsight-config", "KAFKA_BOOTSTRAP_SERVERS").orElse("");
        Map<String, Manifest> scaled = new HashMap<>();
        for (Manifest so : kind("ScaledObject")) {
            String target = so.raw().path("spec").path("scaleTargetRef").path("name").asText();
            scaled.put(target, so);
            if (!deployments.contains(target)) {
                fail("ScaledObject " + so.name() + " scales " + target + ", which is not a Deployment here");
            }
            int max = so.raw().path("spec").path("maxReplicaCount").asInt(100);
            if (max > partitions()) {
                fail("ScaledObject " + so.name() + " may scale to " + max + " replicas; more than the " + partitions()
                        + " partitions would leave consumers idle");
            }
            // KEDA's operator resolves names in its own namespace: the services' short name would not reach Kafka.
            String qualified = qualified(bootstrap, so.raw().path("metadata").path("namespace").asText("hindsight"));
            for (JsonNode trigger : so.raw().path("spec").path("triggers")) {
                if (trigger.path("type").asText().equals("kafka")) {
                    // Trigger metadata is a free map in KEDA's CRD: a misspelt parameter passes the schema and is
                    // silently ignored by the scaler (lagTreshold leaves the default threshold of 10).
                    trigger.path("metadata").fieldNames().forEachRemaining(k -> {
                        if (!KAFKA_SCALER_PARAMETERS.contains(k)) {
                            fail("ScaledObject " + so.name() + " gives its kafka trigger " + k
                                    + ", which KEDA's Kafka scaler does not read (it reads " + KAFKA_SCALER_PARAMETERS + ")");
                        }
                    });
                }
                String servers = trigger.path("metadata").path("bootstrapServers").asText();
                if (trigger.path("type").asText().equals("kafka") && !servers.equals(qualified)) {
                    fail("ScaledObject " + so.name() + " reads lag from " + servers + ", not " + qualified
                            + " (the services' Kafka by the name KEDA's own namespace resolves)");
                }
            }
            JsonNode fallback = so.raw().path("spec").path("fallback");
            int min = so.raw().path("spec").path("minReplicaCount").asInt(0);
            int replicas = fallback.path("replicas").asInt(0);
            if (fallback.path("failureThreshold").asInt(0) < 1 || replicas < Math.max(1, min) || replicas > max) {
                fail("ScaledObject " + so.name() + " needs a fallback (failureThreshold, and replicas between "
                        + Math.max(1, min) + " and " + max + ") for when it cannot read the lag");
            }
        }
        Set<String> hpaTargets = all(HorizontalPodAutoscaler.class).stream()
                .map(h -> h.getSpec().getScaleTargetRef().getName()).collect(Collectors.toSet());
        hpaTargets.stream().filter(t -> !deployments.contains(t))
                .forEach(t -> fail("HorizontalPodAutoscaler scales " + t + ", which is not a Deployment here"));
        for (ServiceConfig config : services().values()) {
            String svc = config.service();
            Set<String> groups = config.incoming().stream().map(ServiceConfig.Channel::group).collect(Collectors.toSet());
            if (groups.isEmpty()) {
                if (!hpaTargets.contains(svc) && !scaled.containsKey(svc)) {
                    fail(svc + " has neither a HorizontalPodAutoscaler nor a ScaledObject");
                }
                continue;
            }
            Manifest so = scaled.get(svc);
            if (so == null) {
                fail(svc + " consumes " + groups + " but no ScaledObject scales it on consumer-group lag");
                continue;
            }
            Set<String> triggered = new LinkedHashSet<>();
            so.raw().path("spec").path("triggers").forEach(t -> {
                if (t.path("type").asText().equals("kafka")) {
                    triggered.add(t.path("metadata").path("consumerGroup").asText());
                }
            });
            groups.stream().filter(g -> !triggered.contains(g))
                    .forEach(g -> fail("ScaledObject " + so.name() + " ignores the lag of group " + g + " that " + svc + " consumes in"));
        }
    }

    /** A Quarkus duration ({@code 5s}, {@code 1m}) in seconds. */
    private static long seconds(String duration) {
        return Duration.parse("PT" + duration.toUpperCase(Locale.ROOT)).toSeconds();
    }

    /** {@code host:port} as a name any namespace resolves: {@code host.namespace.svc:port}. */
    private static String qualified(String bootstrap, String namespace) {
        int colon = bootstrap.lastIndexOf(':');
        String host = colon < 0 ? bootstrap : bootstrap.substring(0, colon);
        String port = colon < 0 ? "" : bootstrap.substring(colon);
        return host.contains(".") ? bootstrap : host + "." + namespace + ".svc" + port;
    }

    // --- monitoring -----------------------------------------------------------------------------------------------

    private void monitoring() {
        for (String kind : List.of("ServiceMonitor", "PodMonitor", "PrometheusRule")) {
            for (Manifest m : kind(kind)) {
                if (m.raw().path("metadata").path("labels").path("release").asText().isEmpty()) {
                    fail(kind + " " + m.name() + " has no release label: kube-prometheus-stack would not select it");
                }
            }
        }
        Set<String> exported = exportedMetrics();
        dashboards(exported);
        for (Manifest rule : kind("PrometheusRule")) {
            for (JsonNode group : rule.raw().path("spec").path("groups")) {
                for (JsonNode r : group.path("rules")) {
                    for (String metric : Promql.metrics(r.path("expr").asText())) {
                        if (!exported.contains(metric)) {
                            fail("PrometheusRule " + rule.name() + " alert " + r.path("alert").asText() + " reads "
                                    + metric + ", which nothing Hindsight deploys or relies on exports");
                        }
                    }
                    // A timer's _max covers a recent window only: it falls to zero when nothing is recorded.
                    Matcher max = TIMER_MAX.matcher(r.path("expr").asText());
                    if (max.find()) {
                        fail("PrometheusRule " + rule.name() + " alerts on " + max.group(1)
                                + ", which decays to zero exactly when nothing is applied");
                    }
                }
            }
        }
    }

    /** Every query of the Grafana dashboards (ConfigMaps labelled grafana_dashboard) reads exported metrics. */
    private void dashboards(Set<String> exported) {
        for (ConfigMap cm : all(ConfigMap.class)) {
            if (cm.getMetadata().getLabels() == null || !cm.getMetadata().getLabels().containsKey("grafana_dashboard")) {
                continue;
            }
            for (var file : Optional.ofNullable(cm.getData()).orElse(Map.of()).entrySet()) {
                JsonNode dashboard;
                try {
                    dashboard = StrictParser.YAML.readTree(file.getValue());
                } catch (java.io.IOException e) {
                    fail("ConfigMap " + name(cm) + " " + file.getKey() + " is not JSON: " + e.getMessage());
                    continue;
                }
                for (JsonNode expr : dashboard.findValues("expr")) {
                    for (String metric : Promql.metrics(expr.asText())) {
                        if (!exported.contains(metric)) {
                            fail("dashboard " + file.getKey() + " reads " + metric
                                    + ", which nothing Hindsight deploys or relies on exports");
                        }
                    }
                }
            }
        }
    }

    /**
     * The metric names that exist: the meters Hindsight's code registers (as Micrometer names them in Prometheus),
     * what the brokers' JMX exporter rules produce, and the series of the components Hindsight relies on, by name.
     */
    private Set<String> exportedMetrics() {
        Set<String> names = new java.util.TreeSet<>(EXTERNAL_METRICS.keySet());
        Pattern meter = Pattern.compile("(?:Timer|Counter|Gauge|DistributionSummary)\\.builder\\(\"([a-z][a-z0-9._]+)\"|"
                + "\\.(?:counter|timer|gauge|summary)\\(\"([a-z][a-z0-9._]+)\"");
        for (String module : Stream.concat(Stream.of("platform"), Repo.SERVICES.stream()).toList()) {
            Path sources = root.resolve(module).resolve("src/main/java");
            try (Stream<Path> files = java.nio.file.Files.walk(sources)) {
                for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                    Matcher m = meter.matcher(java.nio.file.Files.readString(file));
                    while (m.find()) {
                        String base = (m.group(1) != null ? m.group(1) : m.group(2)).replace('.', '_');
                        // Micrometer's Prometheus names: a counter's _total, a timer's _seconds series, a gauge as is.
                        names.add(base);
                        names.add(base + "_total");
                        for (String series : List.of("", "_count", "_sum", "_max", "_bucket")) {
                            names.add(base + "_seconds" + series);
                            names.add(base + series);
                        }
                    }
                }
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
        // The brokers' JMX exporter rules (lowercaseOutputName): each alternative of a rule's first group.
        for (ConfigMap cm : all(ConfigMap.class)) {
            for (String config : Optional.ofNullable(cm.getData()).orElse(Map.of()).values()) {
                Matcher rule = JMX_RULE.matcher(config);
                while (rule.find()) {
                    for (String alternative : rule.group(1).split("\\|")) {
                        names.add(rule.group(2).replace("$1", alternative).toLowerCase(Locale.ROOT));
                    }
                }
            }
        }
        return names;
    }

    // --- NetworkPolicies ------------------------------------------------------------------------------------------

    private void networkPolicies() {
        List<NetworkPolicy> policies = all(NetworkPolicy.class);
        boolean defaultDeny = policies.stream().anyMatch(p -> {
            var selector = p.getSpec().getPodSelector();
            boolean everyPod = (selector.getMatchLabels() == null || selector.getMatchLabels().isEmpty())
                    && (selector.getMatchExpressions() == null || selector.getMatchExpressions().isEmpty());
            return everyPod && p.getSpec().getPolicyTypes().contains("Ingress")
                    && (p.getSpec().getIngress() == null || p.getSpec().getIngress().isEmpty());
        });
        if (!defaultDeny) {
            fail("no NetworkPolicy denies ingress to every pod by default: a pod no policy selects is open to all");
        }
        for (Pod pod : pods()) {
            Map<String, String> labels = pod.labels();
            boolean covered = policies.stream().anyMatch(p -> {
                Map<String, String> selector = p.getSpec().getPodSelector().getMatchLabels();
                return selector != null && !selector.isEmpty() && labels.entrySet().containsAll(selector.entrySet())
                        && p.getSpec().getPolicyTypes().containsAll(List.of("Ingress", "Egress"));
            });
            if (!covered) {
                fail(pod.where() + " has no NetworkPolicy selecting its pods for both Ingress and Egress");
            }
        }
        policyPorts(policies);
    }

    /**
     * The ports a policy opens are ports its pods listen on (ingress), or that the pods it lets them reach listen on
     * (egress to a pod of the namespace): a rule on the wrong port lets nothing through, and the component it was
     * meant for fails only once deployed.
     */
    private void policyPorts(List<NetworkPolicy> policies) {
        Map<Map<String, String>, Set<String>> listening = new LinkedHashMap<>();
        for (Deployment d : all(Deployment.class)) {
            Set<String> ports = new LinkedHashSet<>();
            d.getSpec().getTemplate().getSpec().getContainers().forEach(c -> Optional.ofNullable(c.getPorts())
                    .orElse(List.of()).forEach(p -> {
                        ports.add(String.valueOf(p.getContainerPort()));
                        if (p.getName() != null) {
                            ports.add(p.getName());
                        }
                    }));
            listening.put(d.getSpec().getTemplate().getMetadata().getLabels(), ports);
        }
        for (Kafka kafka : all(Kafka.class)) {
            Set<String> ports = new LinkedHashSet<>(Set.of("9090", "9091", "9404"));
            kafka.getSpec().getKafka().getListeners().forEach(l -> ports.add(String.valueOf(l.getPort())));
            listening.put(Map.of("strimzi.io/cluster", name(kafka), "strimzi.io/kind", "Kafka"), ports);
        }
        for (Manifest cluster : kind("Cluster")) {
            listening.put(Map.of("cnpg.io/cluster", cluster.name()), Set.of("5432", "8000", "9187"));
        }
        for (NetworkPolicy policy : policies) {
            Map<String, String> selected = policy.getSpec().getPodSelector().getMatchLabels();
            Set<String> own = selected == null || selected.isEmpty() ? null : portsOf(listening, selected);
            for (var rule : Optional.ofNullable(policy.getSpec().getIngress()).orElse(List.of())) {
                for (var port : Optional.ofNullable(rule.getPorts()).orElse(List.of())) {
                    if (own != null && port.getPort() != null && !own.contains(portText(port.getPort()))) {
                        fail("NetworkPolicy " + name(policy) + " lets traffic in on port " + portText(port.getPort())
                                + ", on which its pods do not listen (they listen on " + own + ")");
                    }
                }
            }
            for (var rule : Optional.ofNullable(policy.getSpec().getEgress()).orElse(List.of())) {
                for (var peer : Optional.ofNullable(rule.getTo()).orElse(List.of())) {
                    if (peer.getNamespaceSelector() != null || peer.getPodSelector() == null
                            || peer.getPodSelector().getMatchLabels() == null) {
                        continue;
                    }
                    Set<String> theirs = portsOf(listening, peer.getPodSelector().getMatchLabels());
                    if (theirs == null) {
                        fail("NetworkPolicy " + name(policy) + " lets its pods reach " + peer.getPodSelector().getMatchLabels()
                                + ", which selects no pod of this overlay");
                        continue;
                    }
                    for (var port : Optional.ofNullable(rule.getPorts()).orElse(List.of())) {
                        if (port.getPort() != null && !theirs.contains(portText(port.getPort()))) {
                            fail("NetworkPolicy " + name(policy) + " lets its pods reach " + peer.getPodSelector().getMatchLabels()
                                    + " on port " + portText(port.getPort()) + ", on which those pods do not listen "
                                    + "(they listen on " + theirs + ")");
                        }
                    }
                }
            }
        }
    }

    /** The ports of the pods whose labels include {@code selector}; null when it selects none. */
    private static Set<String> portsOf(Map<Map<String, String>, Set<String>> listening, Map<String, String> selector) {
        Set<String> ports = null;
        for (var pod : listening.entrySet()) {
            if (pod.getKey().entrySet().containsAll(selector.entrySet())) {
                ports = ports == null ? new LinkedHashSet<>() : ports;
                ports.addAll(pod.getValue());
            }
        }
        return ports;
    }

    // --- databases ------------------------------------------------------------------------------------------------

    private void databases() {
        Map<String, String> owners = new HashMap<>();
        for (Manifest cluster : kind("Cluster")) {
            JsonNode initdb = cluster.raw().path("spec").path("bootstrap").path("initdb");
            if (initdb.has("database")) {
                owners.put(initdb.path("database").asText(), initdb.path("owner").asText());
            }
        }
        Set<String> clusters = kind("Cluster").stream().map(Manifest::name).collect(Collectors.toSet());
        for (Manifest db : kind("Database")) {
            JsonNode spec = db.raw().path("spec");
            owners.put(spec.path("name").asText(), spec.path("owner").asText());
            if (!clusters.contains(spec.path("cluster").path("name").asText())) {
                fail("Database " + db.name() + " is in cluster " + spec.path("cluster").path("name").asText() + ", which is not here");
            }
        }
        for (Deployment d : all(Deployment.class)) {
            Map<String, String> env = environment(d);
            String url = env.get("QUARKUS_DATASOURCE_REACTIVE_URL");
            if (url == null) {
                continue;
            }
            String database = url.replaceFirst("^.*/", "").replaceFirst("\\?.*$", "");
            String where = "Deployment " + name(d);
            if (!owners.containsKey(database)) {
                fail(where + " connects to database " + database + ", which no Cluster or Database creates");
                continue;
            }
            String secret = d.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv().stream()
                    .filter(e -> e.getName().equals("QUARKUS_DATASOURCE_USERNAME") && e.getValueFrom() != null)
                    .map(e -> e.getValueFrom().getSecretKeyRef().getName()).findFirst().orElse(null);
            String user = secret == null ? null : secrets.getOrDefault(secret, Map.of()).get("username");
            if (user != null && !user.equals(owners.get(database))) {
                fail(where + " logs in as " + user + " to " + database + ", which " + owners.get(database) + " owns");
            }
        }
        if (owners.containsKey("hindsight_memory")) {
            boolean vector = kind("Database").stream().anyMatch(db -> db.raw().path("spec").path("name").asText().equals("hindsight_memory")
                    && db.raw().path("spec").path("extensions").findValuesAsText("name").contains("vector"));
            if (!vector) {
                fail("Database hindsight_memory must have the vector extension (CREATE EXTENSION needs the operator's superuser)");
            }
        }
    }

    private void kafkaSecurity() {
        for (Kafka kafka : all(Kafka.class)) {
            kafka.getSpec().getKafka().getListeners().forEach(l -> {
                if (l.getAuth() == null) {
                    fail("Kafka " + name(kafka) + " listener " + l.getName() + " lets clients in without authentication");
                }
                if (!l.isTls()) {
                    fail("Kafka " + name(kafka) + " listener " + l.getName() + " speaks plain text: SCRAM passwords and "
                            + "events would cross the network unencrypted");
                }
            });
            String protocol = configMapValue("hindsight-config", "KAFKA_SECURITY_PROTOCOL").orElse("PLAINTEXT");
            String bootstrap = configMapValue("hindsight-config", "KAFKA_BOOTSTRAP_SERVERS").orElse("");
            boolean toATlsListener = kafka.getSpec().getKafka().getListeners().stream().anyMatch(l -> l.isTls()
                    && bootstrap.endsWith(":" + l.getPort()));
            if (!protocol.equals("SASL_SSL") || !toATlsListener) {
                fail("the services reach Kafka at " + bootstrap + " with " + protocol
                        + ": they need SASL_SSL on the port of a TLS listener");
            }
            if (!(kafka.getSpec().getKafka().getAuthorization() instanceof KafkaAuthorizationSimple)) {
                fail("Kafka " + name(kafka) + " does not enforce ACLs (authorization type simple)");
            }
            Object autoCreate = kafka.getSpec().getKafka().getConfig().get("auto.create.topics.enable");
            if (!"false".equals(String.valueOf(autoCreate))) {
                fail("Kafka " + name(kafka) + " creates topics on first use; topics must come from KafkaTopic resources");
            }
        }
        if (brokers() < 1) {
            fail("no KafkaNodePool with the broker role");
        }
    }

    // --- prod: replicas, PodDisruptionBudgets, anti-affinity -------------------------------------------------------

    private void highAvailability() {
        Map<String, Integer> minimum = new HashMap<>();
        kind("ScaledObject").forEach(so -> minimum.put(so.raw().path("spec").path("scaleTargetRef").path("name").asText(),
                so.raw().path("spec").path("minReplicaCount").asInt(0)));
        all(HorizontalPodAutoscaler.class).forEach(h -> minimum.put(h.getSpec().getScaleTargetRef().getName(),
                Optional.ofNullable(h.getSpec().getMinReplicas()).orElse(1)));
        List<PodDisruptionBudget> budgets = all(PodDisruptionBudget.class);
        for (Deployment d : all(Deployment.class)) {
            String where = "Deployment " + name(d);
            int replicas = minimum.getOrDefault(name(d), Optional.ofNullable(d.getSpec().getReplicas()).orElse(1));
            if (replicas < 2) {
                fail(where + " runs " + replicas + " replica(s) at minimum; prod needs at least 2");
            }
            Map<String, String> labels = d.getSpec().getTemplate().getMetadata().getLabels();
            List<PodDisruptionBudget> mine = budgets.stream().filter(b -> b.getSpec().getSelector().getMatchLabels() != null
                    && labels.entrySet().containsAll(b.getSpec().getSelector().getMatchLabels().entrySet())).toList();
            if (mine.isEmpty()) {
                fail(where + " has no PodDisruptionBudget");
            }
            for (PodDisruptionBudget b : mine) {
                var maxUnavailable = b.getSpec().getMaxUnavailable();
                var minAvailable = b.getSpec().getMinAvailable();
                boolean drainable = maxUnavailable != null ? maxUnavailable.getIntVal() != null && maxUnavailable.getIntVal() >= 1
                        : minAvailable != null && minAvailable.getIntVal() != null && minAvailable.getIntVal() < replicas;
                if (!drainable) {
                    fail("PodDisruptionBudget " + name(b) + " would block every drain of " + name(d) + " at " + replicas + " replicas");
                }
            }
            var affinity = d.getSpec().getTemplate().getSpec().getAffinity();
            if (affinity == null || affinity.getPodAntiAffinity() == null) {
                fail(where + " has no pod anti-affinity: its replicas could share one node");
            }
        }
        int controllers = all(KafkaNodePool.class).stream().filter(p -> p.getSpec().getRoles().contains(ProcessRoles.CONTROLLER))
                .mapToInt(p -> p.getSpec().getReplicas()).sum();
        if (brokers() < 3 || controllers < 3 || controllers % 2 == 0) {
            fail("prod needs at least 3 brokers and an odd number (3+) of KRaft controllers; has " + brokers() + " and " + controllers);
        }
        kind("Cluster").stream().filter(c -> c.raw().path("spec").path("instances").asInt(1) < 3)
                .forEach(c -> fail("Cluster " + c.name() + " needs 3 instances in prod (a primary and two standbys)"));
    }

    /**
     * Brokers know their zone, so a partition's replicas land in three zones; each pool keeps one pod per zone; a
     * broker is not starved of CPU; and nodes are drained through Strimzi Drain Cleaner (no direct eviction).
     */
    private void kafkaAcrossZones() {
        for (Kafka kafka : all(Kafka.class)) {
            var spec = kafka.getSpec().getKafka();
            if (spec.getRack() == null || !ZONE.equals(spec.getRack().getTopologyKey())) {
                fail("Kafka " + name(kafka) + " has no rack awareness on " + ZONE
                        + ": the three replicas of a partition could share one zone");
            }
            var budget = spec.getTemplate() == null ? null : spec.getTemplate().getPodDisruptionBudget();
            if (budget == null || budget.getMaxUnavailable() != 0) {
                fail("Kafka " + name(kafka) + " lets a drain evict brokers directly: set template.podDisruptionBudget"
                        + ".maxUnavailable 0 and run Strimzi Drain Cleaner");
            }
        }
        for (KafkaNodePool pool : all(KafkaNodePool.class)) {
            var pod = pool.getSpec().getTemplate() == null ? null : pool.getSpec().getTemplate().getPod();
            boolean spread = pod != null && pod.getTopologySpreadConstraints() != null && pod.getTopologySpreadConstraints()
                    .stream().anyMatch(c -> ZONE.equals(c.getTopologyKey()) && "DoNotSchedule".equals(c.getWhenUnsatisfiable()));
            if (!spread) {
                fail("KafkaNodePool " + name(pool) + " does not require its pods to spread over zones (" + ZONE
                        + ", DoNotSchedule)");
            }
            if (pool.getSpec().getRoles().contains(ProcessRoles.BROKER)) {
                var requests = pool.getSpec().getResources() == null ? null : pool.getSpec().getResources().getRequests();
                double cpu = requests == null || !requests.containsKey("cpu") ? 0
                        : io.fabric8.kubernetes.api.model.Quantity.getAmountInBytes(requests.get("cpu")).doubleValue();
                if (cpu < 1) {
                    fail("KafkaNodePool " + name(pool) + " requests " + cpu + " CPU for a broker; prod reserves at least 1");
                }
            }
        }
    }

    /**
     * Everything that cannot be rebuilt from Kafka is backed up: each PostgreSQL cluster archives its WAL to an object
     * store and takes scheduled base backups there, and the registry's ids are exported on a schedule.
     */
    private void backups() {
        Set<String> stores = kind("ObjectStore").stream().map(Manifest::name).collect(Collectors.toSet());
        for (Manifest store : kind("ObjectStore")) {
            if (store.raw().path("spec").path("retentionPolicy").asText().isEmpty()) {
                fail("ObjectStore " + store.name() + " has no retentionPolicy: base backups and WAL would pile up for ever");
            }
        }
        for (Manifest cluster : kind("Cluster")) {
            boolean archived = false;
            for (JsonNode plugin : cluster.raw().path("spec").path("plugins")) {
                if (plugin.path("name").asText().equals(BARMAN_PLUGIN) && plugin.path("isWALArchiver").asBoolean(false)) {
                    String store = plugin.path("parameters").path("barmanObjectName").asText();
                    archived = true;
                    if (!stores.contains(store)) {
                        fail("Cluster " + cluster.name() + " archives WAL to ObjectStore " + store + ", which is not here");
                    }
                }
            }
            if (!archived) {
                fail("Cluster " + cluster.name() + " archives no WAL (plugin " + BARMAN_PLUGIN + " with isWALArchiver)"
                        + ": a lost volume loses everything since the last backup");
            }
            boolean scheduled = kind("ScheduledBackup").stream().anyMatch(b -> {
                JsonNode spec = b.raw().path("spec");
                return spec.path("cluster").path("name").asText().equals(cluster.name())
                        && spec.path("method").asText().equals("plugin")
                        && spec.path("pluginConfiguration").path("name").asText().equals(BARMAN_PLUGIN)
                        && !spec.path("suspend").asBoolean(false);
            });
            if (!scheduled) {
                fail("Cluster " + cluster.name() + " has no ScheduledBackup through " + BARMAN_PLUGIN
                        + ": WAL alone cannot be replayed without a base backup");
            }
        }
        boolean exported = all(CronJob.class).stream().anyMatch(j -> !Boolean.TRUE.equals(j.getSpec().getSuspend())
                && j.getSpec().getJobTemplate().getSpec().getTemplate().getSpec().getInitContainers() != null
                && Stream.concat(j.getSpec().getJobTemplate().getSpec().getTemplate().getSpec().getInitContainers().stream(),
                        j.getSpec().getJobTemplate().getSpec().getTemplate().getSpec().getContainers().stream())
                .anyMatch(c -> c.getCommand() != null && c.getCommand().stream().anyMatch(a -> a.endsWith("registry-export.sh"))
                        && c.getCommand().stream().anyMatch(a -> a.startsWith(REGISTRY_URL))));
        if (!exported) {
            fail("no CronJob exports the registry (registry-export.sh " + REGISTRY_URL + "): losing its database would "
                    + "leave every record's schema id undecodable");
        }
    }

    /**
     * The registry holds what every record needs to be read: it checks its database's certificate and name, nothing
     * can delete through its API, and only Hindsight's own pods reach it.
     */
    private void registry() {
        for (Deployment d : all(Deployment.class)) {
            if (!name(d).equals("hindsight-registry")) {
                continue;
            }
            Map<String, String> env = environment(d);
            String url = env.getOrDefault("APICURIO_DATASOURCE_URL", "");
            String root = url.replaceFirst("^.*[?&]sslrootcert=([^&]+).*$", "$1");
            boolean mounted = !root.equals(url) && d.getSpec().getTemplate().getSpec().getContainers().get(0)
                    .getVolumeMounts().stream().anyMatch(m -> root.startsWith(m.getMountPath() + "/"));
            if (!url.contains("sslmode=verify-full") || !mounted) {
                fail("Deployment hindsight-registry connects to its database with " + url
                        + ": needs sslmode=verify-full and sslrootcert on a mounted CA");
            }
            for (String deletion : List.of("GROUP", "ARTIFACT", "ARTIFACT_VERSION")) {
                if (!"false".equals(env.get("APICURIO_REST_DELETION_" + deletion + "_ENABLED"))) {
                    fail("Deployment hindsight-registry does not set APICURIO_REST_DELETION_" + deletion
                            + "_ENABLED=false: a schema records carry could be deleted");
                }
            }
            if (!"false".equals(env.get("APICURIO_CONFIG_DYNAMIC_ALLOW_ALL"))) {
                fail("Deployment hindsight-registry does not set APICURIO_CONFIG_DYNAMIC_ALLOW_ALL=false: any client could "
                        + "turn deletion back on at run time");
            }
        }
        for (NetworkPolicy p : all(NetworkPolicy.class)) {
            Map<String, String> selector = p.getSpec().getPodSelector().getMatchLabels();
            if (selector == null || !"hindsight-registry".equals(selector.get("app.kubernetes.io/name"))) {
                continue;
            }
            for (var rule : Optional.ofNullable(p.getSpec().getIngress()).orElse(List.of())) {
                boolean fromElsewhere = rule.getFrom() == null || rule.getFrom().isEmpty()
                        || rule.getFrom().stream().anyMatch(peer -> peer.getNamespaceSelector() != null || peer.getIpBlock() != null);
                if (fromElsewhere) {
                    fail("NetworkPolicy " + name(p) + " lets pods outside the namespace reach the registry's read-write API");
                }
            }
        }
    }

    // --- helpers --------------------------------------------------------------------------------------------------

    /** Each service's configuration as its pod sees it. */
    private Map<String, ServiceConfig> services() {
        Map<String, ServiceConfig> configs = new LinkedHashMap<>();
        Map<String, Deployment> deployments = all(Deployment.class).stream().collect(Collectors.toMap(this::name, d -> d));
        for (String svc : Repo.SERVICES) {
            Deployment d = deployments.get(svc);
            if (d == null) {
                fail("no Deployment " + svc);
                continue;
            }
            configs.put(svc, new ServiceConfig(svc, root.resolve(svc).resolve("src/main/resources/application.properties"), environment(d)));
        }
        return configs;
    }

    /** The literal environment of a Deployment's first container: its ConfigMaps, then its plain env values. */
    private Map<String, String> environment(Deployment d) {
        Map<String, String> env = new HashMap<>();
        Container c = d.getSpec().getTemplate().getSpec().getContainers().get(0);
        for (EnvFromSource src : Optional.ofNullable(c.getEnvFrom()).orElse(List.of())) {
            if (src.getConfigMapRef() != null) {
                all(ConfigMap.class).stream().filter(cm -> name(cm).equals(src.getConfigMapRef().getName()))
                        .findFirst().ifPresent(cm -> env.putAll(Optional.ofNullable(cm.getData()).orElse(Map.of())));
            }
        }
        Optional.ofNullable(c.getEnv()).orElse(List.of()).stream().filter(e -> e.getValue() != null)
                .forEach(e -> env.put(e.getName(), e.getValue()));
        return env;
    }

    /** A key of the ConfigMap whose name starts with {@code name} (kustomize appends a content hash). */
    private Optional<String> configMapValue(String name, String key) {
        return all(ConfigMap.class).stream().filter(cm -> name(cm).equals(name) || name(cm).startsWith(name + "-"))
                .filter(cm -> cm.getData() != null && cm.getData().containsKey(key))
                .map(cm -> cm.getData().get(key)).findFirst();
    }

    private static Map<String, String> secretData(Secret secret) {
        Map<String, String> data = new HashMap<>();
        Optional.ofNullable(secret.getData()).orElse(Map.of()).forEach((k, v) -> data.put(k, v));
        Optional.ofNullable(secret.getStringData()).orElse(Map.of()).forEach(data::put);
        return data;
    }

    private static Map<String, String> keys(String... keys) {
        Map<String, String> data = new HashMap<>();
        for (String key : keys) {
            data.put(key, "");
        }
        return data;
    }

    private <T> List<T> all(Class<T> type) {
        return docs.stream().filter(m -> type.isInstance(m.typed())).map(m -> type.cast(m.typed())).toList();
    }

    private List<Manifest> kind(String kind) {
        return docs.stream().filter(m -> m.is(kind)).toList();
    }

    private String name(io.fabric8.kubernetes.api.model.HasMetadata resource) {
        return resource.getMetadata().getName();
    }

    private static Map<String, String> labels(io.fabric8.kubernetes.api.model.HasMetadata resource) {
        return Optional.ofNullable(resource.getMetadata().getLabels()).orElse(Map.of());
    }

    private void fail(String violation) {
        violations.add("[" + overlay + "] " + violation);
    }
}
