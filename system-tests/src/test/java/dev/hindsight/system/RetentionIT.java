package dev.hindsight.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hindsight.events.HindsightTopic;
import dev.hindsight.events.erasures.ErasureEvent;
import dev.hindsight.events.erasures.ErasureRequested;
import dev.hindsight.events.erasures.ErasureSelector;
import dev.hindsight.system.RunningSystem.Service;
import dev.hindsight.testing.TestCrypto;
import dev.hindsight.testing.TestKafka;
import dev.hindsight.testing.TestTenants;
import dev.hindsight.testing.TestTopics;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Retention of sessions through the four packaged services (ADR 0029): tenant-retained's sessions are kept 20 s after
 * their last event (the shared system's configuration), so a chat recorded through ingest, summarised by
 * evaluation-service and tracked by memory-service is erased by query-service's retention once idle: every read model
 * applies the erasure, every record of it on the log names a destroyed key, and a late event for it is refused.
 */
class RetentionIT {

    private static final TestTenants WHO = TestTenants.RETAINED;
    private static final Duration WAIT = Duration.ofSeconds(120);

    private static RunningSystem system;

    @BeforeAll
    static void startTheSystem() {
        system = RunningSystem.shared();
    }

    @Test
    void anIdleSessionLeavesEveryReadModelAndItsRecordsNoLongerOpen() {
        Wire wire = new Wire(WHO.bearer());
        String ingest = system.url(Service.INGEST);
        String session = "retained-" + UUID.randomUUID();
        assertThat(wire.post(ingest + "/v1/sessions", "application/json", "{\"session_id\":\"" + session
                + "\",\"kind\":\"chat\",\"chat\":{\"title\":\"A chat kept 20 seconds\"}}").status()).isEqualTo(202);
        assertThat(wire.post(ingest + "/v1/sessions/" + session + "/messages", "application/json",
                "{\"messages\":[{\"message_index\":0,\"role\":\"user\",\"content\":\"Where is my parcel?\"},"
                        + "{\"message_index\":1,\"role\":\"assistant\",\"content\":\"It left the depot this "
                        + "morning and arrives tomorrow.\"}]}").status()).isEqualTo(202);
        // Projected by query-service, and summarised by evaluation-service (whose summary query-service shows).
        await("the session and its summary").atMost(WAIT).pollInterval(Duration.ofMillis(250))
                .until(() -> wire.get(system.url(Service.QUERY) + "/v1/sessions/" + session),
                        a -> a.status() == 200 && !a.body().path("messages").path(1).path("summary").asText("")
                                .isBlank());

        String erasureId = await("retention's erasure of the session").atMost(WAIT)
                .pollInterval(Duration.ofSeconds(1)).until(() -> TestTopics.readAll(TestKafka.bootstrapServers(),
                        HindsightTopic.ERASURES.defaultName(), ErasureEvent.class).stream()
                        .filter(e -> e.getPayload() instanceof ErasureRequested r
                                && r.getSelector() == ErasureSelector.RETENTION && r.getSessionIds().contains(session))
                        .map(ErasureEvent::getErasureId).findFirst(), java.util.Optional::isPresent).orElseThrow();
        JsonNode status = await("every read model applied it").atMost(WAIT).pollInterval(Duration.ofMillis(250))
                .until(() -> wire.get(ingest + "/v1/erasures/" + erasureId), a -> a.status() == 200
                        && "complete".equals(a.body().path("status").asText())).body();
        assertThat(status.path("selector").asText()).isEqualTo("retention");
        Map<String, Long> erasedBy = new HashMap<>();
        status.path("applied_by").forEach(applied -> {
            long rows = 0;
            for (JsonNode count : applied.path("erased")) {
                rows += count.asLong();
            }
            erasedBy.put(applied.path("service").asText(), rows);
        });
        assertThat(erasedBy).as("rows each read model deleted").containsOnlyKeys("query-service",
                "evaluation-service", "memory-service");
        assertThat(erasedBy.get("query-service")).as("query-service's rows").isPositive();
        assertThat(erasedBy.get("evaluation-service")).as("evaluation-service's rows").isPositive();

        assertThat(wire.get(system.url(Service.QUERY) + "/v1/sessions/" + session).status()).isEqualTo(404);
        List<ConsumerRecord<String, byte[]>> records = TestTopics.readRaw(TestKafka.bootstrapServers(),
                "hindsight.reasoning.v1", r -> session.equals(r.key()), 3, Duration.ofSeconds(30));
        assertThat(records).as("the session's records on the log").hasSize(3);
        for (ConsumerRecord<String, byte[]> record : records) {
            assertThat(TestCrypto.erased(TestKafka.bootstrapServers(), "hindsight.reasoning.v1", record.value()))
                    .as("a record of the expired session that a key still opens").isTrue();
        }
        assertThat(wire.post(ingest + "/v1/sessions/" + session + "/messages", "application/json",
                "{\"messages\":[{\"message_index\":2,\"role\":\"user\",\"content\":\"And now?\"}]}").status())
                .as("a late message for the expired session").isEqualTo(410);
    }
}
