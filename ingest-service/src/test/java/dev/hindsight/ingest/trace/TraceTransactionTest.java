package dev.hindsight.ingest.trace;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.hindsight.events.reasoning.ReasoningEvent;
import dev.hindsight.testing.PrivateBrokerTestResource;
import dev.hindsight.testing.TestTenants;
import dev.hindsight.testing.TestTopics;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/**
 * A whole trace is one Kafka transaction (docs/guarantees.md): when the broker takes the first events of a trace and
 * refuses a later one, none of them becomes visible to a consumer of committed data. The broker is the test's own, so
 * that the topic's size limit can be lowered until the trace's last event no longer fits.
 */
@QuarkusTest
@TestProfile(TraceTransactionTest.PrivateBroker.class)
class TraceTransactionTest {

    private static final String TOPIC = "hindsight.reasoning.v1";

    /** A broker of this test's own. */
    public static class PrivateBroker implements QuarkusTestProfile {
        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(PrivateBrokerTestResource.class));
        }
    }

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @Test
    void aTraceTheBrokerTakesOnlyPartOfIsVisibleNotAtAll() throws Exception {
        String traceId = UUID.randomUUID().toString();
        String trace = TraceIngestResource.EXAMPLE.replace("3f2b9c1e-7a4d-4e8b-9c1f-2d3e4f5a6b7c", traceId);
        // The completion (the trace's last event) carries the final diff: 300 KB that no compression shrinks below the
        // limit set below, and far within what ingest accepts.
        StringBuilder noise = new StringBuilder();
        java.util.Random random = new java.util.Random(7);
        for (int i = 0; i < 300_000; i++) {
            noise.append((char) ('a' + random.nextInt(26)));
        }
        String tooLarge = trace.replace("\"Final_code_diff\": \"", "\"Final_code_diff\": \"" + noise);

        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            ConfigResource topic = new ConfigResource(ConfigResource.Type.TOPIC, TOPIC);
            String limit = admin.describeConfigs(List.of(topic)).all().get().get(topic).get("max.message.bytes").value();
            Map<TopicPartition, Long> endBefore = TestTopics.endOffsets(admin, List.of(TOPIC));
            setMaxMessageBytes(admin, topic, "65536");
            Response refused;
            try {
                refused = upload(tooLarge);
            } finally {
                setMaxMessageBytes(admin, topic, limit);
            }
            // The broker refused an event as too large: 413, nothing accepted (and Kafka is not away: no 503).
            assertThat(refused.statusCode()).as(refused.body().asString()).isEqualTo(413);

            // The trace again, as it fits; its events come after whatever the refused attempt wrote.
            List<Map<String, Object>> receipts = await().atMost(Duration.ofSeconds(30))
                    .until(() -> upload(trace), answer -> answer.statusCode() == 202).jsonPath().getList("receipts");
            int partition = ((Number) receipts.get(0).get("partition")).intValue();
            Set<Long> accepted = new HashSet<>();
            receipts.forEach(r -> accepted.add(((Number) r.get("offset")).longValue()));
            String last = (String) receipts.get(receipts.size() - 1).get("event_id");
            List<ConsumerRecord<String, ReasoningEvent>> visible = TestTopics.readUntil(bootstrap, TOPIC,
                    ReasoningEvent.class, e -> e.getSessionId().equals(traceId),
                    e -> e.getHeader().getEventId().toString().equals(last), Duration.ofSeconds(30));
            assertThat(visible).extracting(ConsumerRecord::offset).as("only the accepted upload's events are visible")
                    .containsExactlyInAnyOrderElementsOf(accepted);
            // And the refused attempt did write its first five events before the broker refused the sixth: without
            // that, this test could not tell a transaction from plain sends.
            long firstAccepted = accepted.stream().mapToLong(Long::longValue).min().orElseThrow();
            assertThat(firstAccepted - endBefore.get(new TopicPartition(TOPIC, partition)))
                    .as("offsets taken by the refused attempt").isGreaterThanOrEqualTo(5);
        }
    }

    private static Response upload(String trace) {
        return given().contentType(ContentType.JSON).header("Authorization", TestTenants.TENANT_A.bearer())
                .body(trace).when().post("/v1/traces").then().extract().response();
    }

    private static void setMaxMessageBytes(Admin admin, ConfigResource topic, String value) throws Exception {
        admin.incrementalAlterConfigs(Map.of(topic, List.of(new AlterConfigOp(
                new ConfigEntry("max.message.bytes", value), AlterConfigOp.OpType.SET)))).all().get();
    }
}
