package dev.hindsight.ingest.trace;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;

import dev.hindsight.events.reasoning.ActivityRecorded;
import dev.hindsight.events.reasoning.ReasoningEvent;
import dev.hindsight.events.reasoning.SessionCompleted;
import dev.hindsight.events.reasoning.SessionStarted;
import dev.hindsight.testing.HindsightTestResource;
import dev.hindsight.testing.TestTenants;
import dev.hindsight.testing.TestTopics;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

@QuarkusTest
@QuarkusTestResource(value = HindsightTestResource.class, initArgs = @ResourceArg(name = "database", value = "false"))
class TraceIngestResourceTest {

    @Test
    void seedTraceIsAcceptedPendingAndCommittedAsOneDebugSession() {
        String traceId = UUID.randomUUID().toString();
        List<String> eventIds = given().contentType(ContentType.JSON)
                .header("Authorization", TestTenants.TENANT_A.bearer())
                .body(TraceIngestResource.EXAMPLE.replace("3f2b9c1e-7a4d-4e8b-9c1f-2d3e4f5a6b7c", traceId))
                .when().post("/v1/traces")
                .then().statusCode(202)
                .body("trace_id", equalTo(traceId))
                .body("qa_results.status", equalTo("pending"))
                .body("receipts", hasSize(6))
                .extract().path("receipts.event_id");

        List<ConsumerRecord<String, ReasoningEvent>> committed = TestTopics.read("hindsight.reasoning.v1",
                ReasoningEvent.class, e -> e.getSessionId().equals(traceId), 6, Duration.ofSeconds(20));

        assertThat(committed).extracting(r -> r.value().getHeader().getEventId().toString())
                .containsExactlyElementsOf(eventIds);
        SessionStarted started = (SessionStarted) committed.get(0).value().getPayload();
        assertThat(started.getDebug().getTaskId()).isEqualTo("BUG-1234");
        assertThat(started.getStartedAt()).isEqualTo(Instant.parse("2025-10-29T16:00:00Z"));
        assertThat(committed.subList(1, 5)).extracting(r -> ((ActivityRecorded) r.value().getPayload()).getSequence())
                .containsExactly(0, 1, 2, 3);
        SessionCompleted completed = (SessionCompleted) committed.get(5).value().getPayload();
        assertThat(completed.getFinalCodeDiff()).startsWith("--- a/parser.py");
        assertThat(completed.getJudgeRequested()).isTrue();
    }

    @Test
    void reUploadingATraceYieldsTheSameEvents() {
        String traceId = UUID.randomUUID().toString();
        String body = TraceIngestResource.EXAMPLE.replace("3f2b9c1e-7a4d-4e8b-9c1f-2d3e4f5a6b7c", traceId);
        List<String> first = upload(body);
        List<String> again = upload(body);
        assertThat(again).isEqualTo(first);
    }

    @Test
    void everySchemaViolationIsNamed() {
        given().contentType(ContentType.JSON).header("Authorization", TestTenants.TENANT_A.bearer())
                .body("""
                        {"trace_id": "t-1", "task_id": "BUG-1", "colour": "red",
                         "events": [
                           {"event_id": "e1", "event_type": "thought_log", "payload": {"thought_text": "x"}},
                           {"event_id": "e2", "timestamp": "2025-10-29 T16:05:10Z", "event_type": "keystroke",
                            "payload": {}},
                           {"event_id": "e3", "timestamp": "2025-10-29T16:05:10Z", "event_type": "command_run",
                            "payload": {"exit_code": "1"}}]}""")
                .when().post("/v1/traces")
                .then().statusCode(400).contentType("application/problem+json")
                .body("errors.field", hasItem("developer_id"))
                .body("errors.field", hasItem("colour"))
                .body("errors.field", hasItem("events[0].timestamp"))
                .body("errors.field", hasItem("events[1].event_type"))
                .body("errors.field", hasItem("events[2].payload.command_text"))
                .body("errors.field", hasItem("events[2].payload.exit_code"));
    }

    @Test
    void theSchemaIsPublished() {
        given().when().get("/v1/schemas/trace.json")
                .then().statusCode(200)
                .body("$id", equalTo("https://hindsight.dev/schemas/trace.json"))
                .body("required", hasItem("events"));
    }

    private static List<String> upload(String body) {
        return given().contentType(ContentType.JSON).header("Authorization", TestTenants.TENANT_A.bearer())
                .body(body).when().post("/v1/traces")
                .then().statusCode(202).extract().path("receipts.event_id");
    }
}
