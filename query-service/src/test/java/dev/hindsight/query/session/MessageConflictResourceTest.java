package dev.hindsight.query.session;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;

import dev.hindsight.events.reasoning.MessageRecorded;
import dev.hindsight.events.reasoning.MessageRole;
import dev.hindsight.events.reasoning.SessionKind;
import dev.hindsight.events.reasoning.SessionStarted;
import dev.hindsight.platform.MessageFingerprint;
import dev.hindsight.testing.HindsightTestResource;
import dev.hindsight.testing.TestEvents;
import dev.hindsight.testing.TestTenants;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * ingest-service's question (ADR 0005) against the real read model: a message whose fingerprint differs from the
 * one recorded at its index conflicts; the same message does not; PostgreSQL computes the recorded message's
 * fingerprint exactly as ingest does ({@link MessageFingerprint}), whatever the characters.
 */
@QuarkusTest
@QuarkusTestResource(HindsightTestResource.class)
class MessageConflictResourceTest {

    private static final String CONTENT = "Ünïcödé ✓ and a separator \u001f inside";
    private static final String TOOL_INPUT = "{\"query\": \"latest python\"}";

    private String sessionId;

    @BeforeEach
    void recordAMessage() {
        sessionId = "conflict-" + UUID.randomUUID();
        Instant at = Instant.parse("2025-10-02T10:00:00Z");
        TestEvents.session("tenant-a", sessionId,
                SessionStarted.newBuilder().setKind(SessionKind.CHAT).setStartedAt(at).build(),
                MessageRecorded.newBuilder().setMessageIndex(0).setRole(MessageRole.ASSISTANT).setContent(CONTENT)
                        .setToolName("web_search").setToolInput(TOOL_INPUT).setTimestamp(at).build());
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> given()
                .header("Authorization", TestTenants.TENANT_A.bearer())
                .when().get("/v1/sessions/" + sessionId).then().statusCode(200).body("messages", hasSize(1)));
    }

    @Test
    void theSameMessageDoesNotConflictADifferentOneDoes() {
        String same = MessageFingerprint.of("assistant", CONTENT, "web_search", TOOL_INPUT);
        String otherContent = MessageFingerprint.of("assistant", CONTENT + ".", "web_search", TOOL_INPUT);
        String otherInput = MessageFingerprint.of("assistant", CONTENT, "web_search", null);

        check(TestTenants.TENANT_A.bearer(), """
                {"messages": [
                  {"session_id": "%1$s", "message_index": 0, "fingerprint": "%2$s"},
                  {"session_id": "%1$s", "message_index": 0, "fingerprint": "%3$s"},
                  {"session_id": "%1$s", "message_index": 1, "fingerprint": "%3$s"},
                  {"session_id": "%1$s", "message_index": 0, "fingerprint": "%4$s"}]}"""
                .formatted(sessionId, same, otherContent, otherInput))
                .body("conflicts", hasSize(2))
                .body("conflicts[0].index", equalTo(1))
                .body("conflicts[0].recorded_role", equalTo("assistant"))
                .body("conflicts[1].index", equalTo(3));
    }

    @Test
    void anOlderIngestSendingContentsIsAnsweredAlike() {
        check(TestTenants.TENANT_A.bearer(), """
                {"messages": [
                  {"session_id": "%1$s", "message_index": 0, "role": "assistant", "content": "%2$s",
                   "tool_name": "web_search", "tool_input": %3$s},
                  {"session_id": "%1$s", "message_index": 0, "role": "user", "content": "%2$s"}]}"""
                .formatted(sessionId, CONTENT.replace("\u001f", "\\u001f"), quoted(TOOL_INPUT)))
                .body("conflicts", hasSize(1))
                .body("conflicts[0].index", equalTo(1));
    }

    @Test
    void anotherTenantsMessagesAreNeverThere() {
        check(TestTenants.TENANT_B.bearer(), """
                {"messages": [{"session_id": "%s", "message_index": 0, "fingerprint": "%s"}]}"""
                .formatted(sessionId, MessageFingerprint.of("user", "anything", null, null)))
                .body("conflicts", hasSize(0));
    }

    @Test
    void aCandidateWithoutAFingerprintOrContentIsRefused() {
        given().header("Authorization", TestTenants.TENANT_A.bearer()).contentType("application/json")
                .body("""
                        {"messages": [{"session_id": "s", "message_index": 0},
                                      {"session_id": "s", "message_index": 0, "fingerprint": "not-hex"}]}""")
                .when().post("/v1/message-conflicts")
                .then().statusCode(400).contentType("application/problem+json")
                .body("errors.field", hasItem("messages[1].fingerprint"));
    }

    private static io.restassured.response.ValidatableResponse check(String bearer, String body) {
        return given().header("Authorization", bearer).contentType("application/json").body(body)
                .when().post("/v1/message-conflicts").then().statusCode(200);
    }

    private static String quoted(String json) {
        return "\"" + json.replace("\"", "\\\"") + "\"";
    }
}
