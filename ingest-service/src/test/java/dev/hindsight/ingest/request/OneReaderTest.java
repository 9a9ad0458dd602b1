package dev.hindsight.ingest.request;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hindsight.testing.HindsightTestResource;
import dev.hindsight.testing.TestTenants;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One reader for every body: the same invalid request, sent as a whole body to its session endpoint and as an item of
 * {@code POST /v1/events:batch}, is refused with the same errors, field for field and word for word (the batch's only
 * differ by the item's prefix). Binding mistakes (an unknown value of an enumeration, an unknown field, a wrong type)
 * and constraint violations alike, for the session endpoints and for the audit payloads with their signal data.
 */
@QuarkusTest
@QuarkusTestResource(value = HindsightTestResource.class, initArgs = @ResourceArg(name = "database", value = "false"))
class OneReaderTest {

    /** A batch item type, the endpoint that takes the same body alone, and an invalid body. */
    record Case(String type, String path, String body) {
        @Override
        public String toString() {
            return type + " " + body;
        }
    }

    static List<Case> cases() {
        return List.of(
                new Case("session", "/v1/sessions", """
                        {"kind": "robot"}"""),
                new Case("session", "/v1/sessions", """
                        {"kind": "chat", "mood": "cheerful"}"""),
                new Case("session", "/v1/sessions", """
                        {"kind": "trading", "trading": {"job_id": " ", "date": "2025-10-02"}}"""),
                new Case("session", "/v1/sessions", """
                        {"kind": "chat", "session_id": "has space", "labels": {"team": null}}"""),
                new Case("session", "/v1/sessions", """
                        {"kind": "chat", "started_at": "yesterday"}"""),
                new Case("session", "/v1/sessions", "[1, 2]"),
                new Case("messages", "/v1/sessions/%s/messages", """
                        {"messages": [{"message_index": -4, "role": "robot"}]}"""),
                new Case("messages", "/v1/sessions/%s/messages", """
                        {"messages": [{"message_index": -1, "role": "user"}, {"message_index": 1}]}"""),
                new Case("messages", "/v1/sessions/%s/messages", """
                        {"messages": []}"""),
                new Case("messages", "/v1/sessions/%s/messages", """
                        {"messages": "hello"}"""),
                new Case("messages", "/v1/sessions/%s/messages", """
                        {"messages": [{"message_index": "first", "role": "user", "content": "hi"}]}"""),
                new Case("messages", "/v1/sessions/%s/messages", """
                        {"messages": [{"message_index": 0, "role": "assistant", "content": "ok",
                          "thinking_steps": [{"type": "tool_call"}, null]}]}"""),
                new Case("positions", "/v1/sessions/%s/positions", """
                        {"positions": [{}]}"""),
                new Case("activities", "/v1/sessions/%s/activities", """
                        {"events": [{"type": "file_edit"}, {"type": "teleport"}]}"""),
                new Case("complete", "/v1/sessions/%s/complete", """
                        {"outcome": "maybe"}"""),
                new Case("complete", "/v1/sessions/%s/complete", """
                        {"total_messages": -3, "summary_hint": 7}"""),
                new Case("decision_set", "/v1/decision-sets", """
                        {"message_id": "m", "session_id": "s", "question_text": "q", "active_version": " ",
                         "active_decision": {"info_need_type": "A", "confidence_level": "certain"}}"""),
                new Case("decision_set", "/v1/decision-sets", """
                        {"event_type": "DECISION_SET_CREATED", "payload": {"message_id": 5}}"""),
                new Case("behavior_signal", "/v1/behavior-signals", """
                        {"message_id": "m", "session_id": "s", "signal_type": "rage_click"}"""),
                new Case("behavior_signal", "/v1/behavior-signals", """
                        {"message_id": "m", "session_id": "s", "signal_type": "reask_same_question",
                         "signal_data": {"time_gap_seconds": "a minute", "question_hash_match": "yes"}}"""));
    }

    @ParameterizedTest
    @MethodSource("cases")
    void aBodyIsRefusedAloneAsInABatch(Case c) {
        String session = "reader-" + UUID.randomUUID();
        JsonPath alone = given().contentType(ContentType.JSON).header("Authorization", TestTenants.TENANT_A.bearer())
                .body(c.body())
                .when().post(c.path().formatted(session))
                .then().statusCode(400).contentType("application/problem+json").extract().jsonPath();
        List<Map<String, String>> aloneErrors = alone.getList("errors");

        String item = !c.path().contains("%s") ? "{\"type\": \"" + c.type() + "\", \"body\": " + c.body() + "}"
                : "{\"type\": \"" + c.type() + "\", \"session_id\": \"" + session + "\", \"body\": " + c.body() + "}";
        JsonPath batch = given().urlEncodingEnabled(false).contentType(ContentType.JSON)
                .header("Authorization", TestTenants.TENANT_A.bearer())
                .body("{\"items\": [" + item + "]}")
                .when().post("/v1/events:batch")
                .then().statusCode(200).extract().jsonPath();
        assertThat(batch.getString("results[0].status")).isEqualTo("rejected");
        List<Map<String, String>> batchErrors = new ArrayList<>();
        for (Map<String, String> error : batch.<Map<String, String>>getList("results[0].errors")) {
            String field = error.get("field");
            String unprefixed = field.equals("items[0].body") ? "$" : field.replaceFirst("^items\\[0]\\.body\\.?", "");
            batchErrors.add(Map.of("field", unprefixed, "message", error.get("message")));
        }

        assertThat(aloneErrors).isNotEmpty();
        assertThat(batchErrors).as("errors of the batch item").containsExactlyElementsOf(aloneErrors);
    }
}
