package dev.hindsight.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.hindsight.system.RunningSystem.Service;
import dev.hindsight.testing.TestKafka;
import dev.hindsight.testing.TestTenants;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A system with nothing left to do shows it: after a whole-trace upload, which ingest publishes in one Kafka
 * transaction (so a commit marker follows its records on the partition), every consumer group commits up to the
 * log-end offset of every partition it reads, markers included, as KEDA, the Kafka exporter and the operations page
 * read them (design.md § Delivery guarantees, "Idle means lag 0").
 */
class IdleMeansLagZeroIT {

    private static final TestTenants WHO = TestTenants.TENANT_A;
    private static final Duration WAIT = Duration.ofSeconds(90);

    private static RunningSystem system;

    @BeforeAll
    static void startTheSystem() {
        system = RunningSystem.shared();
    }

    @Test
    void afterATransactionalTraceUploadEveryGroupCommitsToTheEndOfEveryPartition() throws Exception {
        traceUploaded();
        try (Admin admin = admin()) {
            awaitNoLag(admin);
        }
    }

    /**
     * The alert rules the monitoring component installs (deploy/k8s/components/monitoring/monitors.yaml) stay quiet on
     * an idle system: its consumer groups' lag and committed offsets (as the Kafka exporter reports them, under the
     * groups' deployed names), its dead-letter topics' offsets and every service's consumer metrics, held for 40
     * minutes, are given to promtool, which must find no alert firing. The rules on PostgreSQL's WAL archiver and on
     * the registry's export CronJob read series this system has not got, and are not checked here.
     */
    @Test
    void theAlertRulesStayQuietOnAnIdleSystem() throws Exception {
        traceUploaded();
        Path promtool = Path.of(System.getProperty("hindsight.promtool", "../.hindsight/tools/promtool"));
        assertThat(promtool).as("promtool (deploy/local/promtool.sh ensure)").isExecutable();
        StringBuilder series = new StringBuilder();
        try (Admin admin = admin()) {
            awaitNoLag(admin);
            for (Service service : List.of(Service.QUERY, Service.EVALUATION, Service.MEMORY)) {
                String group = system.group(service);
                String deployed = "hindsight-" + service.jarName();
                Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(group)
                        .partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS);
                Map<TopicPartition, Long> behind = ConsumerLag.behind(admin, group);
                committed.forEach((partition, offset) -> {
                    String labels = "{consumergroup=\"" + deployed + "\",topic=\"" + partition.topic()
                            + "\",partition=\"" + partition.partition() + "\"}";
                    series.append(held("kafka_consumergroup_lag" + labels, behind.getOrDefault(partition, 0L)));
                    series.append(held("kafka_consumergroup_current_offset" + labels, offset.offset()));
                });
            }
            Map<TopicPartition, org.apache.kafka.clients.admin.OffsetSpec> deadLetters = new java.util.HashMap<>();
            admin.describeTopics(admin.listTopics().names().get(30, TimeUnit.SECONDS).stream()
                            .filter(topic -> topic.endsWith(".dlq")).toList()).allTopicNames()
                    .get(30, TimeUnit.SECONDS).values().forEach(topic -> topic.partitions().forEach(p -> deadLetters
                            .put(new TopicPartition(topic.name(), p.partition()),
                                    org.apache.kafka.clients.admin.OffsetSpec.latest())));
            admin.listOffsets(deadLetters).all().get(30, TimeUnit.SECONDS).forEach((partition, end) -> series.append(
                    held("kafka_topic_partition_current_offset{topic=\"" + partition.topic() + "\",partition=\""
                            + partition.partition() + "\"}", end.offset())));
        }
        Wire wire = new Wire(WHO.bearer());
        for (Service service : List.of(Service.INGEST, Service.QUERY, Service.EVALUATION, Service.MEMORY)) {
            Wire.Answer metrics = wire.get(system.url(service) + "/q/metrics");
            assertThat(metrics.status()).as(service + "'s metrics").isEqualTo(200);
            for (String line : metrics.text().split("\n")) {
                if (line.startsWith("hindsight_consumer_") && !line.endsWith("NaN")) {
                    int split = line.lastIndexOf(' ');
                    String name = line.substring(0, split);
                    String job = "job=\"" + service.jarName() + "-service\"";
                    name = name.contains("{") ? name.replace(",}", "}").replace("}", "," + job + "}")
                            : name + "{" + job + "}";
                    series.append(held(name, Double.parseDouble(line.substring(split + 1))));
                }
            }
        }

        Path dir = Files.createTempDirectory("alert-rules");
        Files.writeString(dir.resolve("rules.yml"), rules());
        StringBuilder expectations = new StringBuilder();
        for (String alert : ALERTS) {
            expectations.append("      - eval_time: 40m\n        alertname: ").append(alert)
                    .append("\n        exp_alerts: []\n");
        }
        Files.writeString(dir.resolve("idle.yml"), "rule_files:\n  - rules.yml\nevaluation_interval: 1m\ntests:\n"
                + "  - interval: 1m\n    input_series:\n" + series + "    alert_rule_test:\n" + expectations);
        Process check = new ProcessBuilder(promtool.toAbsolutePath().toString(), "test", "rules", "idle.yml")
                .directory(dir.toFile()).redirectErrorStream(true).start();
        String out = new String(check.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(check.waitFor()).as("promtool test rules on the idle system's series:\n" + out).isZero();
        assertThat(series.toString()).as("series given to the rules").contains("kafka_consumergroup_lag",
                "hindsight_consumer_");
    }

    /** Alerts whose every series this system has. */
    private static final List<String> ALERTS = List.of("HindsightDeadLetters", "HindsightConsumerFallingBehind",
            "HindsightProjectionStale", "HindsightConsumerStalled", "HindsightProjectionFailing",
            "HindsightSealedEventsWaiting");

    /** A series holding {@code value} for 40 minutes, in promtool's notation. */
    private static String held(String series, double value) {
        String plain = new java.math.BigDecimal(value).stripTrailingZeros().toPlainString();
        return "      - series: '" + series + "'\n        values: '" + plain + "+0x40'\n";
    }

    /** The rule groups of the PrometheusRule in the monitoring component, as a plain rules file. */
    private static String rules() throws java.io.IOException {
        List<String> lines = Files.readAllLines(Path.of(System.getProperty("hindsight.monitors",
                "../deploy/k8s/components/monitoring/monitors.yaml")));
        StringBuilder rules = new StringBuilder();
        boolean rule = false;
        boolean spec = false;
        for (String line : lines) {
            if (line.equals("---")) {
                rule = false;
                spec = false;
            } else if (line.equals("kind: PrometheusRule")) {
                rule = true;
            } else if (rule && line.equals("spec:")) {
                spec = true;
            } else if (spec) {
                rules.append(line.startsWith("  ") ? line.substring(2) : line).append('\n');
            }
        }
        assertThat(rules.toString()).as("the PrometheusRule's groups").startsWith("groups:");
        return rules.toString();
    }

    /**
     * Once per run: a whole debugging trace uploaded (one Kafka transaction), applied by query-service and judged by
     * evaluation-service, whose verdict query-service shows.
     */
    private static synchronized void traceUploaded() throws Exception {
        if (uploaded) {
            return;
        }
        Wire wire = new Wire(WHO.bearer());
        String traceId = UUID.randomUUID().toString();
        String demo = Files.readString(Path.of(System.getProperty("hindsight.test.demo-dir", "../deploy/local/demo"),
                "003-debugging-trace", "trace.json"));
        String trace = demo.replace(Wire.JSON.readTree(demo).path("trace_id").asText(), traceId);
        assertThat(wire.post(system.url(Service.INGEST) + "/v1/traces", "application/json", trace).status())
                .isEqualTo(202);
        await("the trace's verdict in query-service").atMost(WAIT).pollInterval(Duration.ofMillis(500))
                .until(() -> wire.get(system.url(Service.QUERY) + "/v1/traces/" + traceId),
                        answer -> answer.status() == 200
                                && "completed".equals(answer.body().path("qa_results").path("status").asText()));
        uploaded = true;
    }

    private static boolean uploaded;

    private static Admin admin() {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, TestKafka.bootstrapServers()));
    }

    private static void awaitNoLag(Admin admin) {
        for (Service service : List.of(Service.QUERY, Service.EVALUATION, Service.MEMORY)) {
            String group = system.group(service);
            await(group + " committed to the end of every partition").atMost(WAIT)
                    .pollInterval(Duration.ofMillis(500))
                    .untilAsserted(() -> assertThat(ConsumerLag.behind(admin, group)).as("lag of " + group)
                            .isEmpty());
        }
    }
}
