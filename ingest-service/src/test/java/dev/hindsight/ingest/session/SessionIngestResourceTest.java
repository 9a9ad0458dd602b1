package dev.hindsight.ingest.session;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.notNullValue;

import dev.hindsight.events.reasoning.MessageRecorded;
import dev.hindsight.events.reasoning.ReasoningEvent;
import dev.hindsight.events.reasoning.SessionKind;
import dev.hindsight.events.reasoning.SessionStarted;
import dev.hindsight.events.reasoning.StepType;
import dev.hindsight.events.reasoning.ThinkingStep;
import dev.hindsight.testing.HindsightTestResource;
import dev.hindsight.testing.TestTenants;
import dev.hindsight.testing.TestTopics;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;
import java.time.Duration;
import java.time.LocalDate;
import java.util.List;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

@QuarkusTest
@QuarkusTestResource(value = HindsightTestResource.class, initArgs = @ResourceArg(name = "database", value = "false"))
class SessionIngestResourceTest {

    private static final String TOPIC = "hindsight.reasoning.v1";

    @Test
    void requestWithoutKeyIsRefusedWithProblemJson() {
        given().contentType(ContentType.JSON).body("{\"kind\": \"chat\"}")
                .when().post("/v1/sessions")
                .then().statusCode(401)
                .contentType("application/problem+json")
                .header("WWW-Authenticate", containsString("Bearer"))
                .body("status", equalTo(401));
    }

    @Test
    void unknownKeyIsRefused() {
        given().contentType(ContentType.JSON).header("Authorization", "Bearer not-a-key").body("{\"kind\": \"chat\"}")
                .when().post("/v1/sessions")
                .then().statusCode(401).contentType("application/problem+json");
    }

    @Test
    void keyWithoutIngestScopeIsForbidden() {
        given().contentType(ContentType.JSON).header("Authorization", TestTenants.READ_ONLY_A.bearer())
                .body("{\"kind\": \"chat\"}")
                .when().post("/v1/sessions")
                .then().statusCode(403).contentType("application/problem+json");
    }

    @Test
    void tradingSessionIsPublishedKeyedBySessionIdWithTheTenantOfTheKey() {
        String jobId = UUID.randomUUID().toString();
        ExtractableResponse<Response> accepted = given().contentType(ContentType.JSON)
                .header("Authorization", TestTenants.TENANT_A.bearer())
                .body("""
                        {"kind": "trading", "started_at": "2025-10-02T10:00:00Z",
                         "trading": {"job_id": "%s", "date": "2025-10-02", "model": "gpt-5"}}"""
                        .formatted(jobId))
                .when().post("/v1/sessions")
                .then().statusCode(202)
                .body("session_id", notNullValue())
                .body("receipts", hasSize(1))
                .body("receipts[0].topic", equalTo(TOPIC))
                .body("receipts[0].offset", notNullValue())
                .extract();
        String sessionId = accepted.path("session_id");
        String eventId = accepted.path("receipts[0].event_id");

        List<ConsumerRecord<String, ReasoningEvent>> published = TestTopics.read(TOPIC, ReasoningEvent.class,
                (ReasoningEvent e) -> e.getHeader().getEventId().toString().equals(eventId), 1, Duration.ofSeconds(20));

        assertThat(published).hasSize(1);
        ConsumerRecord<String, ReasoningEvent> record = published.get(0);
        assertThat(record.key()).isEqualTo(sessionId);
        assertThat(record.partition()).isEqualTo(accepted.<Integer>path("receipts[0].partition"));
        assertThat(record.offset()).isEqualTo(accepted.<Number>path("receipts[0].offset").longValue());
        assertThat(record.value().getHeader().getTenantId()).isEqualTo("tenant-a");
        assertThat(record.value().getHeader().getProducer().getPrincipal()).isEqualTo("tenant_a");
        SessionStarted started = (SessionStarted) record.value().getPayload();
        assertThat(started.getKind()).isEqualTo(SessionKind.TRADING);
        assertThat(started.getTrading().getJobId()).isEqualTo(jobId);
        assertThat(started.getTrading().getDate()).isEqualTo(LocalDate.of(2025, 10, 2));
    }

    @Test
    void aTenantNamedInTheBodyIsRefusedAndNothingIsPublished() {
        // The tenant is the key's; a body that names one (here another tenant's) is refused, never obeyed.
        String jobId = UUID.randomUUID().toString();
        given().contentType(ContentType.JSON).header("Authorization", TestTenants.TENANT_A.bearer())
                .body("""
                        {"kind": "trading", "started_at": "2025-10-02T10:00:00Z", "tenant_id": "tenant-b",
                         "trading": {"job_id": "%s", "date": "2025-10-02", "model": "gpt-5"}}""".formatted(jobId))
                .when().post("/v1/sessions")
                .then().statusCode(400).contentType("application/problem+json")
                .body("errors.field", hasItem("tenant_id"));

        // A later valid start of the same job is the only event about it.
        String accepted = given().contentType(ContentType.JSON).header("Authorization", TestTenants.TENANT_A.bearer())
                .body("""
                        {"kind": "trading", "trading": {"job_id": "%s", "date": "2025-10-02", "model": "gpt-5"}}"""
                        .formatted(jobId))
                .when().post("/v1/sessions").then().statusCode(202).extract().path("receipts[0].event_id");
        List<ConsumerRecord<String, ReasoningEvent>> aboutTheJob = TestTopics.readUntil(TOPIC, ReasoningEvent.class,
                (ReasoningEvent e) -> e.getPayload() instanceof SessionStarted started && started.getTrading() != null
                        && jobId.equals(started.getTrading().getJobId()),
                (ReasoningEvent e) -> e.getHeader().getEventId().toString().equals(accepted), Duration.ofSeconds(20));
        assertThat(aboutTheJob).hasSize(1);
        assertThat(aboutTheJob.get(0).value().getHeader().getTenantId()).isEqualTo("tenant-a");
    }

    @Test
    void sameModelDayNamesTheSameSessionAndTheSameEvent() {
        String body = """
                {"kind": "trading", "trading": {"job_id": "job-%s", "date": "2025-10-03", "model": "gpt-5"}}"""
                .formatted(UUID.randomUUID());
        String[] first = startAndGetIds(body);
        String[] again = startAndGetIds(body);
        assertThat(again).containsExactly(first);
    }

    @Test
    void messagesKeepThinkingStepsInExactOrder() {
        String sessionId = "chat-" + UUID.randomUUID();
        ExtractableResponse<Response> accepted = given().contentType(ContentType.JSON)
                .header("Authorization", TestTenants.TENANT_A.bearer())
                .body("""
                        {"messages": [
                          {"message_index": 0, "role": "user", "content": "What is the latest Python version?",
                           "timestamp": "2025-01-31T10:30:00Z"},
                          {"message_index": 1, "role": "assistant", "content": "Python 3.13.",
                           "timestamp": "2025-01-31T10:30:04Z",
                           "thinking_steps": [
                             {"step_order": 2, "step_type": "reasoning", "content": "The result confirms it."},
                             {"step_order": 0, "step_type": "reasoning", "content": "Versions change; check."},
                             {"step_order": 1, "step_type": "tool", "tool_name": "web_search",
                              "tool_arguments": {"q": "python latest version"}, "tool_result": "3.13"}]}]}""")
                .when().post("/v1/sessions/" + sessionId + "/messages")
                .then().statusCode(202)
                .body("session_id", equalTo(sessionId))
                .body("receipts", hasSize(2))
                .extract();
        String assistantEvent = accepted.path("receipts[1].event_id");

        List<ConsumerRecord<String, ReasoningEvent>> published = TestTopics.read(TOPIC, ReasoningEvent.class,
                (ReasoningEvent e) -> e.getHeader().getEventId().toString().equals(assistantEvent), 1,
                Duration.ofSeconds(20));

        assertThat(published).hasSize(1);
        MessageRecorded message = (MessageRecorded) published.get(0).value().getPayload();
        assertThat(message.getMessageIndex()).isEqualTo(1);
        assertThat(message.getThinkingSteps()).extracting(ThinkingStep::getStepOrder).containsExactly(0, 1, 2);
        assertThat(message.getThinkingSteps()).extracting(ThinkingStep::getStepType)
                .containsExactly(StepType.REASONING, StepType.TOOL, StepType.REASONING);
        assertThat(message.getThinkingSteps().get(1).getToolArguments()).isEqualTo("{\"q\":\"python latest version\"}");
    }

    @Test
    void everyInvalidFieldIsNamedInOneProblem() {
        given().contentType(ContentType.JSON).header("Authorization", TestTenants.TENANT_A.bearer())
                .body("""
                        {"messages": [
                          {"message_index": -1, "role": "assistant", "content": null},
                          {"message_index": 3, "role": "user", "content": "hi",
                           "thinking_steps": [{"step_order": 0, "step_type": "tool"}]}]}""")
                .when().post("/v1/sessions/s-1/messages")
                .then().statusCode(400)
                .contentType("application/problem+json")
                .body("errors.field", hasItem("messages[0].message_index"))
                .body("errors.field", hasItem("messages[0].content"));
    }

    @Test
    void crossFieldRulesAreReportedWithTheirPaths() {
        given().contentType(ContentType.JSON).header("Authorization", TestTenants.TENANT_A.bearer())
                .body("""
                        {"messages": [
                          {"message_index": 3, "role": "user", "content": "hi",
                           "thinking_steps": [{"step_order": 0, "step_type": "tool"}]}]}""")
                .when().post("/v1/sessions/s-1/messages")
                .then().statusCode(400)
                .body("errors.field", hasItem("messages[0].thinking_steps"))
                .body("errors.field", hasItem("messages[0].thinking_steps[0].tool_name"));
    }

    @Test
    void malformedJsonAndWrongTypesAreClientErrors() {
        given().contentType(ContentType.JSON).header("Authorization", TestTenants.TENANT_A.bearer())
                .body("{\"kind\": ")
                .when().post("/v1/sessions")
                .then().statusCode(400).contentType("application/problem+json");
        given().contentType(ContentType.JSON).header("Authorization", TestTenants.TENANT_A.bearer())
                .body("{\"kind\": \"trading\", \"trading\": {\"job_id\": \"j\", \"date\": \"02/10/2025\", \"model\": \"m\"}}")
                .when().post("/v1/sessions")
                .then().statusCode(400)
                .body("errors[0].field", equalTo("trading.date"));
        given().contentType(ContentType.JSON).header("Authorization", TestTenants.TENANT_A.bearer())
                .body("{\"kind\": \"poetry\"}")
                .when().post("/v1/sessions")
                .then().statusCode(400)
                .body("errors[0].field", equalTo("kind"))
                .body("errors[0].message", containsString("trading"));
        given().contentType(ContentType.JSON).header("Authorization", TestTenants.TENANT_A.bearer())
                .body("{\"kind\": \"chat\", \"colour\": \"blue\"}")
                .when().post("/v1/sessions")
                .then().statusCode(400)
                .body("errors[0].message", containsString("colour"));
    }

    @Test
    void attributesMustMatchTheKind() {
        given().contentType(ContentType.JSON).header("Authorization", TestTenants.TENANT_A.bearer())
                .body("{\"kind\": \"trading\", \"debug\": {\"developer_id\": \"d\", \"task_id\": \"t\"}}")
                .when().post("/v1/sessions")
                .then().statusCode(400)
                .body("errors.field", hasItem("trading"))
                .body("errors.field", hasItem("debug"));
    }

    @Test
    void oversizedBodiesAre413AndNonJsonIs415BothAsProblems() {
        given().contentType(ContentType.JSON).header("Authorization", TestTenants.TENANT_A.bearer())
                .body("{\"messages\": [{\"message_index\": 0, \"role\": \"user\", \"content\": \""
                        + "x".repeat(5 * 1024 * 1024) + "\"}]}")
                .when().post("/v1/sessions/s-1/messages")
                .then().statusCode(413).contentType("application/problem+json");
        given().contentType("text/plain").header("Authorization", TestTenants.TENANT_A.bearer())
                .body("kind=chat")
                .when().post("/v1/sessions")
                .then().statusCode(415).contentType("application/problem+json");
    }

    private static String[] startAndGetIds(String body) {
        ExtractableResponse<Response> response = given().contentType(ContentType.JSON)
                .header("Authorization", TestTenants.TENANT_A.bearer()).body(body)
                .when().post("/v1/sessions")
                .then().statusCode(202).extract();
        return new String[] {response.path("session_id"), response.path("receipts[0].event_id")};
    }
}
