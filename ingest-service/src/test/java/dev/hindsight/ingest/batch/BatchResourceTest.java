package dev.hindsight.ingest.batch;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;

import dev.hindsight.events.reasoning.ReasoningEvent;
import dev.hindsight.testing.HindsightTestResource;
import dev.hindsight.testing.TestTenants;
import dev.hindsight.testing.TestTopics;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

@QuarkusTest
@QuarkusTestResource(value = HindsightTestResource.class, initArgs = @ResourceArg(name = "database", value = "false"))
class BatchResourceTest {

    @Test
    void everyItemGetsItsOwnResultAndTheGoodOnesAreDurable() {
        String session = "batch-" + UUID.randomUUID();
        JsonPath result = given().urlEncodingEnabled(false).contentType(ContentType.JSON)
                .header("Authorization", TestTenants.TENANT_A.bearer())
                .body("""
                        {"items": [
                          {"type": "session", "body": {"session_id": "%1$s", "kind": "chat"}},
                          {"type": "messages", "session_id": "%1$s",
                           "body": {"messages": [{"message_index": 0, "role": "user", "content": "Hi"},
                                                 {"message_index": 1, "role": "assistant", "content": "Hello"}]}},
                          {"type": "messages", "session_id": "%1$s",
                           "body": {"messages": [{"message_index": -4, "role": "robot"}]}},
                          {"type": "decision_set", "body": {"message_id": "m-%1$s", "session_id": "%1$s",
                           "question_text": "q", "active_version": "v1",
                           "active_decision": {"info_need_type": "A", "decision_action": "B"}}},
                          {"type": "behavior_signal", "body": {"message_id": "m-%1$s", "session_id": "%1$s",
                           "signal_type": "smooth_completion"}},
                          {"type": "teleport", "body": {}},
                          {"type": "complete", "body": {"outcome": "success"}}
                        ]}""".formatted(session))
                .when().post("/v1/events:batch")
                .then().statusCode(200)
                .body("results", hasSize(7))
                .body("accepted", equalTo(4))
                .body("rejected", equalTo(3))
                .body("unavailable", equalTo(0))
                .extract().jsonPath();

        assertThat(result.getList("results.status", String.class)).containsExactly("accepted", "accepted",
                "rejected", "accepted", "accepted", "rejected", "rejected");
        assertThat(result.getInt("results[1].receipts.size()")).isEqualTo(2);
        assertThat(result.getList("results[2].errors.field", String.class))
                .contains("items[2].body.messages[0].role");
        assertThat(result.getList("results[5].errors.field", String.class)).containsExactly("items[5].type");
        assertThat(result.getList("results[6].errors.field", String.class)).contains("items[6].session_id");
        assertThat(result.getString("results[3].receipts[0].topic")).isEqualTo("hindsight.decisions.v1");
        assertThat(result.getString("results[4].receipts[0].topic")).isEqualTo("hindsight.signals.v1");

        List<String> reasoningIds = List.of(result.getString("results[0].receipts[0].event_id"),
                result.getString("results[1].receipts[0].event_id"), result.getString("results[1].receipts[1].event_id"));
        assertThat(TestTopics.read("hindsight.reasoning.v1", ReasoningEvent.class,
                e -> reasoningIds.contains(e.getHeader().getEventId().toString()), 3, Duration.ofSeconds(20)))
                .hasSize(3);
    }

    @Test
    void clientsThatPercentEncodeTheColonReachTheSameEndpoint() {
        given().contentType(ContentType.JSON).header("Authorization", TestTenants.TENANT_A.bearer())
                .body("{\"items\": [{\"type\": \"session\", \"body\": {\"kind\": \"chat\"}}]}")
                .when().post("/v1/events:batch")
                .then().statusCode(200).body("accepted", equalTo(1));
    }

    @Test
    void somethingThatIsNotABatchIsRefusedWhole() {
        given().urlEncodingEnabled(false).contentType(ContentType.JSON).header("Authorization", TestTenants.TENANT_A.bearer())
                .body("{\"items\": []}")
                .when().post("/v1/events:batch")
                .then().statusCode(400).body("errors.field", hasItem("items"));
        given().urlEncodingEnabled(false).contentType(ContentType.JSON).header("Authorization", TestTenants.TENANT_A.bearer())
                .body("[1, 2]")
                .when().post("/v1/events:batch")
                .then().statusCode(400);
    }

    @Test
    void tooManyItemsAreRefusedWithTheLimit() {
        String item = "{\"type\": \"teleport\"}";
        String body = "{\"items\": [" + String.join(",", java.util.Collections.nCopies(
                BatchItems.MAX_ITEMS + 1, item)) + "]}";
        given().urlEncodingEnabled(false).contentType(ContentType.JSON).header("Authorization", TestTenants.TENANT_A.bearer()).body(body)
                .when().post("/v1/events:batch")
                .then().statusCode(400).body("errors[0].message", org.hamcrest.Matchers.containsString("1000"));
    }
}
