package dev.hindsight.memory.api;

import static io.restassured.RestAssured.given;

import dev.hindsight.testing.SameSubjectMemories;
import dev.hindsight.testing.TestTenants;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** Test calls to memory-service's REST API. */
final class Memories {

    private Memories() {
    }

    static String project() {
        return "proj-" + UUID.randomUUID().toString().substring(0, 8);
    }

    static JsonPath record(TestTenants who, String project, String title, String content, String outcome,
            List<String> tags) {
        return given().header("Authorization", who.bearer()).contentType(ContentType.JSON)
                .body(Map.of("title", title, "content", content, "outcome", outcome, "tags", tags))
                .post("/v1/projects/{p}/memories", project)
                .then().statusCode(201).extract().jsonPath();
    }

    /** Records {@link SameSubjectMemories}' crowd and then its lesson into {@code project}; the lesson's id. */
    static String recordSameSubject(TestTenants who, String project) {
        for (SameSubjectMemories.Text memory : SameSubjectMemories.sameSubject()) {
            record(who, project, memory.title(), memory.content(), "success", List.of());
        }
        SameSubjectMemories.Text lesson = SameSubjectMemories.LESSON;
        return record(who, project, lesson.title(), lesson.content(), "success", List.of()).getString("id");
    }

    static JsonPath search(TestTenants who, String project, String query, Integer limit, String session) {
        Map<String, Object> body = new java.util.HashMap<>();
        body.put("query", query);
        if (limit != null) {
            body.put("limit", limit);
        }
        if (session != null) {
            body.put("session_id", session);
        }
        return given().header("Authorization", who.bearer()).contentType(ContentType.JSON).body(body)
                .post("/v1/projects/{p}/memories/search", project).then().statusCode(200).extract().jsonPath();
    }

    static JsonPath get(TestTenants who, String id) {
        return given().header("Authorization", who.bearer()).get("/v1/memories/{id}", id)
                .then().statusCode(200).extract().jsonPath();
    }

    /** Waits until the memory's usage count is {@code expected} (usage signals are recorded in the background). */
    static void awaitUsage(TestTenants who, String id, long expected) {
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30))
                .until(() -> get(who, id).getLong("usage_count"), count -> count == expected);
    }

    static JsonPath feedback(TestTenants who, String id, boolean helpful) {
        return given().header("Authorization", who.bearer()).contentType(ContentType.JSON)
                .body(Map.of("helpful", helpful)).post("/v1/memories/{id}/feedback", id)
                .then().statusCode(200).extract().jsonPath();
    }

    static JsonPath outcome(TestTenants who, String id, boolean succeeded) {
        return given().header("Authorization", who.bearer()).contentType(ContentType.JSON)
                .body(Map.of("succeeded", succeeded)).post("/v1/memories/{id}/outcome", id)
                .then().statusCode(200).extract().jsonPath();
    }
}
