package dev.hindsight.system;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

import dev.hindsight.testing.PackagedService;
import dev.hindsight.testing.TestDatabase;
import dev.hindsight.testing.TestRegistry;
import dev.hindsight.testing.TestTenants;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The walking skeleton end to end, through the packaged services as separate processes: producer → ingest-service →
 * Kafka (Avro, Apicurio Registry) → query-service → PostgreSQL → HTTP.
 */
class WalkingSkeletonIT {

    private static TestDatabase queryDatabase;
    private static PackagedService ingest;
    private static PackagedService query;

    @BeforeAll
    static void startSystem() {
        queryDatabase = TestDatabase.create("system_query");
        query = PackagedService.start("query", Map.of(
                "quarkus.datasource.reactive.url", queryDatabase.reactiveUrl(),
                "quarkus.datasource.jdbc.url", queryDatabase.jdbcUrl(),
                "quarkus.datasource.username", TestDatabase.user(),
                "quarkus.datasource.password", TestDatabase.password()));
        // ingest asks query-service whether a message index is taken by a different message (ADR 0005).
        ingest = PackagedService.start("ingest", Map.of("hindsight.ingest.conflict-check-url", query.url()));
    }

    @AfterAll
    static void stopSystem() {
        if (query != null) {
            query.close();
        }
        if (ingest != null) {
            ingest.close();
        }
        if (queryDatabase != null) {
            queryDatabase.close();
        }
    }

    @Test
    void sessionAndMessagesTravelFromIngestToQueryInOrder() {
        String sessionId = "e2e-" + UUID.randomUUID();
        given().baseUri(ingest.url()).header("Authorization", TestTenants.TENANT_A.bearer())
                .contentType(ContentType.JSON)
                .body("""
                        {"session_id": "%s", "kind": "chat", "started_at": "2025-01-31T10:30:00Z",
                         "chat": {"agent": "agentos"}}""".formatted(sessionId))
                .when().post("/v1/sessions")
                .then().statusCode(202).body("session_id", equalTo(sessionId));
        given().baseUri(ingest.url()).header("Authorization", TestTenants.TENANT_A.bearer())
                .contentType(ContentType.JSON)
                .body("""
                        {"messages": [
                          {"message_index": 1, "role": "assistant", "content": "Python 3.13.",
                           "thinking_steps": [
                             {"step_order": 0, "step_type": "reasoning", "content": "Check a current source."},
                             {"step_order": 1, "step_type": "tool", "tool_name": "web_search",
                              "tool_arguments": {"q": "python latest"}, "tool_result": "3.13"},
                             {"step_order": 2, "step_type": "reasoning", "content": "Confirmed."}]},
                          {"message_index": 0, "role": "user", "content": "What is the latest Python version?"}]}""")
                .when().post("/v1/sessions/" + sessionId + "/messages")
                .then().statusCode(202).body("receipts", hasSize(2));

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> given().baseUri(query.url())
                .header("Authorization", TestTenants.TENANT_A.bearer())
                .when().get("/v1/sessions/" + sessionId)
                .then().statusCode(200).body("kind", equalTo("chat")).body("messages", hasSize(2)));

        JsonPath session = given().baseUri(query.url()).header("Authorization", TestTenants.TENANT_A.bearer())
                .when().get("/v1/sessions/" + sessionId).then().extract().jsonPath();
        assertThat(session.getList("messages.message_index", Integer.class)).containsExactly(0, 1);
        assertThat(session.getList("messages[1].thinking_steps.step_type", String.class))
                .containsExactly("reasoning", "tool", "reasoning");
        assertThat(session.getString("messages[1].thinking_steps[1].tool_arguments.q")).isEqualTo("python latest");
        given().baseUri(query.url()).header("Authorization", TestTenants.TENANT_B.bearer())
                .when().get("/v1/sessions/" + sessionId)
                .then().statusCode(404);
    }

    @Test
    void aConflictingResendIsRefusedWith409AndAnIdenticalOneIsHarmless() {
        String sessionId = "conflict-" + UUID.randomUUID();
        String first = """
                {"messages": [{"message_index": 0, "role": "user", "content": "Buy NVDA?"}]}""";
        given().baseUri(ingest.url()).header("Authorization", TestTenants.TENANT_A.bearer())
                .contentType(ContentType.JSON).body(first)
                .when().post("/v1/sessions/" + sessionId + "/messages").then().statusCode(202);
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> given().baseUri(query.url())
                .header("Authorization", TestTenants.TENANT_A.bearer())
                .when().get("/v1/sessions/" + sessionId).then().statusCode(200).body("messages", hasSize(1)));

        // The identical message again: accepted, and still one message.
        given().baseUri(ingest.url()).header("Authorization", TestTenants.TENANT_A.bearer())
                .contentType(ContentType.JSON).body(first)
                .when().post("/v1/sessions/" + sessionId + "/messages").then().statusCode(202);
        // A different message at the same index: 409 naming the field, nothing published.
        given().baseUri(ingest.url()).header("Authorization", TestTenants.TENANT_A.bearer())
                .contentType(ContentType.JSON).body("""
                        {"messages": [{"message_index": 1, "role": "assistant", "content": "Yes."},
                                      {"message_index": 0, "role": "user", "content": "Sell NVDA?"}]}""")
                .when().post("/v1/sessions/" + sessionId + "/messages")
                .then().statusCode(409).contentType("application/problem+json")
                .body("errors.field", equalTo(java.util.List.of("messages[1].message_index")));
        // In a batch, only the conflicting item is rejected.
        given().baseUri(ingest.url()).header("Authorization", TestTenants.TENANT_A.bearer())
                .contentType(ContentType.JSON).body("""
                        {"items": [
                          {"type": "messages", "session_id": "%1$s",
                           "body": {"messages": [{"message_index": 0, "role": "user", "content": "Hold?"}]}},
                          {"type": "messages", "session_id": "%1$s",
                           "body": {"messages": [{"message_index": 2, "role": "user", "content": "And AMD?"}]}}]}"""
                        .formatted(sessionId))
                .when().post("/v1/events:batch")
                .then().statusCode(200).body("accepted", equalTo(1)).body("rejected", equalTo(1))
                .body("results[0].errors[0].field", equalTo("items[0].body.messages[0].message_index"));
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> given().baseUri(query.url())
                .header("Authorization", TestTenants.TENANT_A.bearer())
                .when().get("/v1/sessions/" + sessionId).then().statusCode(200)
                .body("messages.message_index", equalTo(java.util.List.of(0, 2)))
                .body("messages[0].content", equalTo("Buy NVDA?")));
    }

    @Test
    void bothServicesRefuseRequestsWithoutAKey() {
        given().baseUri(ingest.url()).contentType(ContentType.JSON).body("{\"kind\": \"chat\"}")
                .when().post("/v1/sessions").then().statusCode(401);
        given().baseUri(query.url()).when().get("/v1/sessions/x").then().statusCode(401);
    }

    @Test
    void registryHoldsTheSchemasIngestRegistered() {
        given().baseUri(TestRegistry.url())
                .when().get("/groups/default/artifacts/hindsight.reasoning.v1-value/rules/COMPATIBILITY")
                .then().statusCode(200).body("config", equalTo("BACKWARD_TRANSITIVE"));
    }
}
