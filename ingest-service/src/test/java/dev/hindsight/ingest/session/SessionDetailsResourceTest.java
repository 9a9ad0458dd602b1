package dev.hindsight.ingest.session;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;

import dev.hindsight.events.reasoning.ActivityRecorded;
import dev.hindsight.events.reasoning.CommandRun;
import dev.hindsight.events.reasoning.PositionRecorded;
import dev.hindsight.events.reasoning.ReasoningEvent;
import dev.hindsight.events.reasoning.SessionCompleted;
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

/**
 * Positions (design.md § Positions), incremental trace events (design.md § Events) and completion, through the real
 * broker.
 */
@QuarkusTest
@QuarkusTestResource(value = HindsightTestResource.class, initArgs = @ResourceArg(name = "database", value = "false"))
class SessionDetailsResourceTest {

    @Test
    void positionsActivitiesAndCompletionArePublishedInOrderForTheSession() {
        String sessionId = "debug-" + UUID.randomUUID();
        post(sessionId, "positions", """
                {"positions": [{"action_id": 1, "action_type": "buy", "symbol": "NVDA", "amount": 10,
                  "price": 189.60, "cash": 8104.00, "portfolio_value": 10000.00}]}""", 1);
        String runEvent = post(sessionId, "activities", """
                {"events": [
                  {"event_id": "e-1", "timestamp": "2025-10-29 T16:05:10Z", "event_type": "thought_log",
                   "payload": {"thought_text": "The parser drops the last token."}},
                  {"event_id": "e-2", "timestamp_iso": "2025-10-29T16:07:00Z", "event_type": "command_run",
                   "payload": {"command_text": "pytest", "exit_code": 1, "stderr": "AssertionError"}}]}""", 2);
        String completedEvent = post(sessionId, "complete", """
                {"outcome": "success", "final_code_diff": "--- a\\n+++ b", "judge": true}""", 1);

        List<ConsumerRecord<String, ReasoningEvent>> published = TestTopics.read("hindsight.reasoning.v1",
                ReasoningEvent.class, e -> e.getSessionId().equals(sessionId), 4, Duration.ofSeconds(20));

        assertThat(published).extracting(r -> r.value().getPayload().getClass().getSimpleName())
                .containsExactly("PositionRecorded", "ActivityRecorded", "ActivityRecorded", "SessionCompleted");
        assertThat(((PositionRecorded) published.get(0).value().getPayload()).getCashAfter()).isEqualTo(8104.00);
        ActivityRecorded thought = (ActivityRecorded) published.get(1).value().getPayload();
        assertThat(thought.getTimestamp()).isEqualTo(Instant.parse("2025-10-29T16:05:10Z"));
        assertThat(thought.getSequence()).isEqualTo(-1);
        ActivityRecorded run = (ActivityRecorded) published.get(2).value().getPayload();
        assertThat(((CommandRun) run.getActivity()).getExitCode()).isEqualTo(1);
        assertThat(published.get(2).value().getHeader().getEventId().toString()).isEqualTo(runEvent);
        SessionCompleted completed = (SessionCompleted) published.get(3).value().getPayload();
        assertThat(completed.getJudgeRequested()).isTrue();
        assertThat(completed.getFinalCodeDiff()).isEqualTo("--- a\n+++ b");
        assertThat(published.get(3).value().getHeader().getEventId().toString()).isEqualTo(completedEvent);
    }

    @Test
    void activityPayloadsAreCheckedPerEventType() {
        given().contentType(ContentType.JSON).header("Authorization", TestTenants.TENANT_A.bearer())
                .body("""
                        {"events": [
                          {"event_id": "e-1", "timestamp": "yesterday", "event_type": "thought_log",
                           "payload": {"thought": "typo in the field name"}},
                          {"event_id": "e-2", "timestamp": "2025-10-29T16:07:00Z", "event_type": "keystroke",
                           "payload": {}},
                          {"event_id": "e-3", "timestamp": "2025-10-29T16:07:00Z", "event_type": "command_run",
                           "payload": {"command_text": "make", "exit_code": "one"}}]}""")
                .when().post("/v1/sessions/s-1/activities")
                .then().statusCode(400)
                .body("errors.field", hasItem("events[0].timestamp"))
                .body("errors.field", hasItem("events[0].payload.thought"))
                .body("errors.field", hasItem("events[0].payload.thought_text"))
                .body("errors.field", hasItem("events[1].event_type"))
                .body("errors.field", hasItem("events[2].payload.exit_code"));
    }

    @Test
    void positionActionsMustBeKnown() {
        given().contentType(ContentType.JSON).header("Authorization", TestTenants.TENANT_A.bearer())
                .body("{\"positions\": [{\"action_id\": 1, \"action_type\": \"short\"}]}")
                .when().post("/v1/sessions/s-1/positions")
                .then().statusCode(400).body("errors.field", hasItem("positions[0].action_type"));
    }

    /** POSTs {@code body} to the session's {@code resource}; returns the last receipt's event id. */
    private static String post(String sessionId, String resource, String body, int events) {
        List<String> ids = given().contentType(ContentType.JSON)
                .header("Authorization", TestTenants.TENANT_A.bearer()).body(body)
                .when().post("/v1/sessions/" + sessionId + "/" + resource)
                .then().statusCode(202).body("receipts", hasSize(events))
                .extract().path("receipts.event_id");
        return ids.get(ids.size() - 1);
    }
}
