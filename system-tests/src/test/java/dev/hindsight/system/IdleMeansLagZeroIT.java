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
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
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
        Wire wire = new Wire(WHO.bearer());
        String traceId = UUID.randomUUID().toString();
        String demo = Files.readString(Path.of(System.getProperty("hindsight.test.demo-dir", "../deploy/local/demo"),
                "003-debugging-trace", "trace.json"));
        String trace = demo.replace(Wire.JSON.readTree(demo).path("trace_id").asText(), traceId);
        assertThat(wire.post(system.url(Service.INGEST) + "/v1/traces", "application/json", trace).status())
                .isEqualTo(202);
        // Applied by query-service, and judged by evaluation-service (whose verdict query-service shows).
        await("the trace's verdict in query-service").atMost(WAIT).pollInterval(Duration.ofMillis(500))
                .until(() -> wire.get(system.url(Service.QUERY) + "/v1/traces/" + traceId),
                        answer -> answer.status() == 200
                                && "completed".equals(answer.body().path("qa_results").path("status").asText()));

        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                TestKafka.bootstrapServers()))) {
            for (Service service : List.of(Service.QUERY, Service.EVALUATION, Service.MEMORY)) {
                String group = system.group(service);
                await(group + " committed to the end of every partition").atMost(WAIT)
                        .pollInterval(Duration.ofMillis(500))
                        .untilAsserted(() -> assertThat(ConsumerLag.behind(admin, group)).as("lag of " + group)
                                .isEmpty());
            }
        }
    }
}
