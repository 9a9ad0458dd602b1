package dev.hindsight.memory.api;

import static dev.hindsight.testing.TestTenants.TENANT_A;
import static dev.hindsight.testing.TestTenants.TENANT_B;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.hindsight.events.memory.MemoryEvent;
import dev.hindsight.events.memory.MemoryRecorded;
import dev.hindsight.memorymodel.confidence.ConfidenceModel;
import dev.hindsight.memorymodel.confidence.MemoryOrigin;
import dev.hindsight.memorymodel.confidence.ProjectWeights;
import dev.hindsight.memorymodel.confidence.SignalCounts;
import dev.hindsight.memorymodel.embedding.OnnxEmbedder;
import dev.hindsight.memorymodel.search.Neighbour;
import dev.hindsight.memorymodel.search.SearchRule;
import dev.hindsight.testing.HindsightTestResource;
import dev.hindsight.testing.SameSubjectMemories;
import dev.hindsight.testing.TestTopics;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/** The ReasoningBank over REST, through the real broker, registry, PostgreSQL with pgvector and MiniLM. */
@QuarkusTest
@QuarkusTestResource(HindsightTestResource.class)
class MemoryApiTest {

    @Test
    void aTaskOrQueryOfControlCharactersOnlyIsNoTextAndA400() {
        // The embedding model reads characters up to U+0020 as nothing; such a task or query is refused, not a 500.
        given().header("Authorization", TENANT_A.bearer()).queryParam("task", "\u0001\u001f")
                .get("/v1/projects/p/context").then().statusCode(400).contentType("application/problem+json")
                .body("errors[0].field", org.hamcrest.Matchers.equalTo("task"));
        given().header("Authorization", TENANT_A.bearer()).contentType(ContentType.JSON)
                .body(Map.of("query", "\u0001\u0002")).post("/v1/projects/p/memories/search").then().statusCode(400);
        // Past U+0020 too: no-break and em spaces, zero-width, replacement and combining characters are read as
        // nothing by the model; the answer names the field, as for any bad input.
        given().header("Authorization", TENANT_A.bearer()).contentType(ContentType.JSON)
                .body(Map.of("query", "\u00a0\u2003\u200b\ufffd\u0301")).post("/v1/projects/p/memories/search")
                .then().statusCode(400).contentType("application/problem+json")
                .body("errors[0].field", org.hamcrest.Matchers.equalTo("query"))
                .body("errors[0].message", org.hamcrest.Matchers.containsString("no words the embedding model"));
        given().header("Authorization", TENANT_A.bearer()).queryParam("task", "\u3000\u00ad")
                .get("/v1/projects/p/context").then().statusCode(400)
                .body("errors[0].field", org.hamcrest.Matchers.equalTo("task"));
    }

    @Test
    void aRecordedMemoryIsFoundByAQueryWordedDifferently() {
        String project = Memories.project();
        String jwt = Memories.record(TENANT_A, project, "Validate JWT expiry in the auth middleware",
                "When login sessions expire early, check the token validation middleware: compare exp with a clock "
                        + "skew allowance and return 401 instead of 500.", "success", List.of("language:go", "auth"))
                .getString("id");
        Memories.record(TENANT_A, project, "Pin the Postgres driver version",
                "A transitive upgrade of the database driver broke connection pooling; pin it in the lock file.",
                "failure", List.of("dependency"));
        Memories.record(TENANT_A, project, "Cache market data per trading day",
                "Fetching quotes for every decision was slow; cache the day's prices once at the open.", "success",
                List.of("trading"));

        JsonPath found = Memories.search(TENANT_A, project, "users get logged out because the auth token check is wrong",
                null, null);

        assertThat(found.getList("memories.id", String.class)).first().isEqualTo(jwt);
        assertThat(found.getInt("count")).isEqualTo(found.getList("memories").size());
        List<Float> similarities = found.getList("memories.similarity", Float.class);
        assertThat(similarities).isSortedAccordingTo((a, b) -> Float.compare(b, a));
        assertThat(found.getFloat("memories[0].confidence")).isEqualTo(0.8f);
        // A returned memory records a usage signal (in the background: the answer does not wait for it).
        Memories.awaitUsage(TENANT_A, jwt, 1);
    }

    /**
     * Relevance (design.md § Semantic search): in a project whose memories all say much the same thing, the one that
     * answers what the question adds comes first, though the plain cosine ranks it 5th ({@link SameSubjectMemories}).
     */
    @Test
    void whatTheQuestionAddsBeyondTheProjectsCommonSubjectDecidesTheOrder() {
        String project = Memories.project();
        String id = Memories.recordSameSubject(TENANT_A, project);
        SameSubjectMemories.Text lesson = SameSubjectMemories.LESSON;

        JsonPath found = Memories.search(TENANT_A, project, SameSubjectMemories.QUESTION, 3, null);

        assertThat(found.getList("memories.id", String.class)).first().isEqualTo(id);
        // The answer's similarity is still the plain cosine of the question and the memory.
        OnnxEmbedder model = OnnxEmbedder.load(OnnxEmbedder.MINILM);
        float[] q = model.embed(SameSubjectMemories.QUESTION);
        float[] m = model.embed(SearchRule.embeddingText(lesson.title(), null, lesson.content()));
        assertThat(found.getDouble("memories[0].similarity"))
                .isCloseTo(new Neighbour(null, 0, q).cosine(new Neighbour(null, 0, m)), within(0.002));
    }

    @Test
    void aRetriedRecordIsOneMemory() {
        String project = Memories.project();
        Map<String, Object> lesson = Map.of("title", "Add jitter to exponential backoff",
                "content", "Randomise each retry delay so that clients do not retry in step.", "outcome", "success",
                "tags", List.of("retries"));
        String id = Memories.record(TENANT_A, project, "Add jitter to exponential backoff",
                "Randomise each retry delay so that clients do not retry in step.", "success", List.of("retries"))
                .getString("id");

        // The same call again (a client retrying after a timeout): the memory already recorded, not a second one.
        String again = given().header("Authorization", TENANT_A.bearer()).contentType(ContentType.JSON).body(lesson)
                .post("/v1/projects/{p}/memories", project).then().statusCode(200)
                .header("Location", org.hamcrest.Matchers.endsWith("/v1/memories/" + id))
                .extract().jsonPath().getString("id");

        assertThat(again).isEqualTo(id);
        assertThat(given().header("Authorization", TENANT_A.bearer()).get("/v1/projects/{p}/memories", project)
                .then().statusCode(200).extract().jsonPath().getList("memories")).hasSize(1);
        // Another outcome is another memory, and so is the same text in another tenant's project of that name.
        String failure = Memories.record(TENANT_A, project, "Add jitter to exponential backoff",
                "Randomise each retry delay so that clients do not retry in step.", "failure", List.of("retries"))
                .getString("id");
        String otherTenant = Memories.record(TENANT_B, project, "Add jitter to exponential backoff",
                "Randomise each retry delay so that clients do not retry in step.", "success", List.of("retries"))
                .getString("id");
        assertThat(List.of(failure, otherTenant)).doesNotContain(id).doesNotHaveDuplicates();
    }

    @Test
    void nearDuplicatesInOneAnswerAreCollapsedToTheMostSimilar() {
        String project = Memories.project();
        String first = Memories.record(TENANT_A, project, "Add jitter to exponential backoff",
                "Randomise each retry delay so that clients do not retry in step.", "success", List.of())
                .getString("id");
        String copy = Memories.record(TENANT_A, project, "Add jitter to the exponential backoff",
                "Randomise every retry delay so that the clients do not retry in step.", "success", List.of())
                .getString("id");
        String opposite = Memories.record(TENANT_A, project, "Add jitter to exponential backoff",
                "Randomise each retry delay so that clients do not retry in step.", "failure", List.of())
                .getString("id");
        String other = Memories.record(TENANT_A, project, "Take locks in one global order",
                "Two transactions deadlocked because they locked rows in opposite order.", "success", List.of())
                .getString("id");

        JsonPath found = Memories.search(TENANT_A, project, "clients retry at the same moment", 10, null);

        List<String> ids = found.getList("memories.id", String.class);
        assertThat(ids).as("one of the two copies, the other lesson, and the failure of the same text")
                .containsOnlyOnce(opposite, other).hasSize(3);
        assertThat(ids).containsAnyOf(first, copy).doesNotContainSequence(first, copy);
        assertThat(ids.contains(first) && ids.contains(copy)).isFalse();
    }

    @Test
    void feedbackAndOutcomesMoveConfidenceAsTheModelPredicts() {
        String project = Memories.project();
        String id = Memories.record(TENANT_A, project, "Retry flaky integration tests once",
                "Retry a failing integration test once before investigating; log both runs.", "success", List.of())
                .getString("id");
        assertThat(Memories.get(TENANT_A, id).getDouble("confidence")).isEqualTo(0.8);
        Memories.search(TENANT_A, project, "integration tests fail sometimes", 5, null);   // one usage signal
        Memories.awaitUsage(TENANT_A, id, 1);

        // Unhelpful: an explicit negative, and the usage signal (which predicted "helpful") was contradicted.
        double afterFeedback = Memories.feedback(TENANT_A, id, false).getDouble("new_confidence");
        ProjectWeights learned = ProjectWeights.PRIORS.learnFromFeedback(false, new SignalCounts(0, 0, 1, 0, 0));
        assertThat(afterFeedback).isCloseTo(ConfidenceModel.confidence(MemoryOrigin.EXPLICIT,
                new SignalCounts(0, 1, 1, 0, 0), learned), within(1e-4));
        assertThat(afterFeedback).isLessThan(0.8);

        double afterOutcome = Memories.outcome(TENANT_A, id, true).getDouble("new_confidence");
        assertThat(afterOutcome).isCloseTo(ConfidenceModel.confidence(MemoryOrigin.EXPLICIT,
                new SignalCounts(0, 1, 1, 1, 0), learned), within(1e-4));
        assertThat(afterOutcome).isGreaterThan(afterFeedback);

        JsonPath memory = Memories.get(TENANT_A, id);
        assertThat(memory.getDouble("confidence")).isCloseTo(afterOutcome, within(1e-4));
        assertThat(memory.getMap("signals")).containsEntry("explicit_unhelpful", 1).containsEntry("usage", 1)
                .containsEntry("outcome_succeeded", 1);
    }

    @Test
    void aProjectIsListedNewestFirstPageByPage() {
        String project = Memories.project();
        List<String> ids = new java.util.ArrayList<>();
        for (int i = 0; i < 3; i++) {
            ids.add(Memories.record(TENANT_A, project, "Lesson " + i, "Content " + i, "success", List.of())
                    .getString("id"));
        }
        JsonPath first = given().header("Authorization", TENANT_A.bearer()).queryParam("limit", 2)
                .get("/v1/projects/{p}/memories", project).then().statusCode(200).extract().jsonPath();
        assertThat(first.getList("memories.id", String.class)).containsExactly(ids.get(2), ids.get(1));
        String cursor = first.getString("next_cursor");
        assertThat(cursor).isNotBlank();

        JsonPath second = given().header("Authorization", TENANT_A.bearer()).queryParam("limit", 2)
                .queryParam("cursor", cursor).get("/v1/projects/{p}/memories", project)
                .then().statusCode(200).extract().jsonPath();
        assertThat(second.getList("memories.id", String.class)).containsExactly(ids.get(0));
        assertThat(second.getString("next_cursor")).isNull();

        given().header("Authorization", TENANT_A.bearer()).queryParam("cursor", "not-a-cursor")
                .get("/v1/projects/{p}/memories", project).then().statusCode(400)
                .body("errors.field", org.hamcrest.Matchers.hasItem("cursor"));
    }

    @Test
    void memoriesBelowMinConfidenceAreNotReturned() {
        String project = Memories.project();
        String id = Memories.record(TENANT_A, project, "Restart the build server when Maven hangs",
                "If the build hangs, restart the CI agent.", "success", List.of()).getString("id");
        // Beta(4, 1) and an explicit weight of 0.7: one unhelpful rating leaves it searchable, a second does not.
        assertThat(Memories.feedback(TENANT_A, id, false).getDouble("new_confidence")).isEqualTo(0.7018);
        assertThat(Memories.search(TENANT_A, project, "maven build hangs on the server", null, null)
                .getList("memories.id", String.class)).containsExactly(id);
        assertThat(Memories.feedback(TENANT_A, id, false).getDouble("new_confidence")).isLessThan(0.7);
        assertThat(Memories.search(TENANT_A, project, "maven build hangs on the server", null, null)
                .getList("memories")).isEmpty();
        assertThat(Memories.get(TENANT_A, id).getDouble("confidence")).isLessThan(0.7);
    }

    @Test
    void everyChangeIsAnEventOnTheMemoryTopic() {
        String project = Memories.project();
        String id = Memories.record(TENANT_A, project, "Use table-driven tests",
                "Table-driven tests keep edge cases visible.", "success", List.of("language:go")).getString("id");

        List<ConsumerRecord<String, MemoryEvent>> events = TestTopics.read("hindsight.memory.v1", MemoryEvent.class,
                e -> id.equals(e.getMemoryId()), 1, Duration.ofSeconds(30));
        ConsumerRecord<String, MemoryEvent> record = events.get(0);
        assertThat(record.key()).isEqualTo(id);
        MemoryRecorded recorded = (MemoryRecorded) record.value().getPayload();
        assertThat(recorded.getTitle()).isEqualTo("Use table-driven tests");
        assertThat(recorded.getEmbedding().getModelId()).isEqualTo("all-minilm-l6-v2-q");
        assertThat(recorded.getEmbedding().getVector()).hasSize(384);
        assertThat(record.value().getHeader().getTenantId()).isEqualTo(TENANT_A.tenant());
    }

    @Test
    void deletingAProjectTouchesOnlyThatTenantsProject() {
        String project = Memories.project();
        String mine = Memories.record(TENANT_A, project, "Mine", "A's lesson about parsing dates.", "success",
                List.of()).getString("id");
        String theirs = Memories.record(TENANT_B, project, "Theirs", "B's lesson about parsing dates.", "success",
                List.of()).getString("id");
        String single = Memories.record(TENANT_A, project, "Single", "Delete me alone.", "failure", List.of())
                .getString("id");

        given().header("Authorization", TENANT_A.bearer()).delete("/v1/memories/{id}", single).then().statusCode(204);
        given().header("Authorization", TENANT_A.bearer()).get("/v1/memories/{id}", single).then().statusCode(404);
        assertThat(Memories.get(TENANT_A, mine).getString("title")).isEqualTo("Mine");

        given().header("Authorization", TENANT_A.bearer()).delete("/v1/projects/{p}/memories", project)
                .then().statusCode(204);
        given().header("Authorization", TENANT_A.bearer()).get("/v1/memories/{id}", mine).then().statusCode(404);
        given().header("Authorization", TENANT_A.bearer()).get("/v1/projects/{p}/memories", project)
                .then().statusCode(404);
        assertThat(Memories.get(TENANT_B, theirs).getString("title")).isEqualTo("Theirs");
        assertThat(given().header("Authorization", TENANT_B.bearer()).get("/v1/projects/{p}/memories", project)
                .then().statusCode(200).extract().jsonPath().getList("memories.id")).containsExactly(theirs);

        // A memory recorded after the purge is not affected by it.
        String after = Memories.record(TENANT_A, project, "After", "Recorded after the purge.", "success", List.of())
                .getString("id");
        assertThat(Memories.get(TENANT_A, after).getString("title")).isEqualTo("After");
    }

    @Test
    void anotherTenantsMemoriesAndProjectsAreNotFound() {
        String project = Memories.project();
        String id = Memories.record(TENANT_A, project, "A's secret strategy", "Only tenant A may see this.",
                "success", List.of()).getString("id");
        String b = TENANT_B.bearer();

        given().header("Authorization", b).get("/v1/memories/{id}", id).then().statusCode(404)
                .contentType("application/problem+json");
        given().header("Authorization", b).delete("/v1/memories/{id}", id).then().statusCode(404);
        given().header("Authorization", b).contentType(ContentType.JSON).body(Map.of("helpful", false))
                .post("/v1/memories/{id}/feedback", id).then().statusCode(404);
        given().header("Authorization", b).contentType(ContentType.JSON).body(Map.of("succeeded", false))
                .post("/v1/memories/{id}/outcome", id).then().statusCode(404);
        given().header("Authorization", b).get("/v1/projects/{p}/memories", project).then().statusCode(404);
        given().header("Authorization", b).contentType(ContentType.JSON).body(Map.of("query", "strategy"))
                .post("/v1/projects/{p}/memories/search", project).then().statusCode(404);
        given().header("Authorization", b).queryParam("task", "strategy").get("/v1/projects/{p}/context", project)
                .then().statusCode(404);
        // tenant B's key lacks the admin scope a project delete needs; tenant A probing B's project gets a 404.
        String theirProject = Memories.project();
        Memories.record(TENANT_B, theirProject, "B only", "B's.", "success", List.of());
        given().header("Authorization", TENANT_A.bearer()).delete("/v1/projects/{p}/memories", theirProject)
                .then().statusCode(404);

        // Nothing B tried changed A's memory.
        JsonPath memory = Memories.get(TENANT_A, id);
        assertThat(memory.getDouble("confidence")).isEqualTo(0.8);
        assertThat(memory.getLong("usage_count")).isZero();
    }

    @Test
    void withoutAKeyEveryEndpointIsRefused() {
        String id = "00000000-0000-0000-0000-000000000001";
        given().get("/v1/memories/{id}", id).then().statusCode(401);
        given().delete("/v1/memories/{id}", id).then().statusCode(401);
        given().contentType(ContentType.JSON).body(Map.of("helpful", true)).post("/v1/memories/{id}/feedback", id)
                .then().statusCode(401);
        given().contentType(ContentType.JSON).body(Map.of("succeeded", true)).post("/v1/memories/{id}/outcome", id)
                .then().statusCode(401);
        given().get("/v1/projects/p/memories").then().statusCode(401);
        given().contentType(ContentType.JSON).body(Map.of("title", "t", "content", "c", "outcome", "success"))
                .post("/v1/projects/p/memories").then().statusCode(401);
        given().contentType(ContentType.JSON).body(Map.of("query", "q")).post("/v1/projects/p/memories/search")
                .then().statusCode(401);
        given().delete("/v1/projects/p/memories").then().statusCode(401);
        given().queryParam("task", "t").get("/v1/projects/p/context").then().statusCode(401);
        given().header("Authorization", "Bearer not-a-key").get("/v1/memories/{id}", id).then().statusCode(401);
        given().contentType(ContentType.JSON).accept("application/json, text/event-stream")
                .body("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}").post("/mcp").then().statusCode(401);
    }

    @Test
    void badInputIsAProblemNamingEveryField() {
        String project = Memories.project();
        given().header("Authorization", TENANT_A.bearer()).contentType(ContentType.JSON)
                .body(Map.of("title", "", "content", "x", "outcome", "maybe"))
                .post("/v1/projects/{p}/memories", project)
                .then().statusCode(400).contentType("application/problem+json")
                .body("errors.field", org.hamcrest.Matchers.hasItems("title", "outcome"));
        given().header("Authorization", TENANT_A.bearer()).contentType(ContentType.JSON)
                .body(Map.of("title", "t", "content", "c", "outcome", "success"))
                .post("/v1/projects/{p}/memories", "bad project!").then().statusCode(400);
        given().header("Authorization", TENANT_A.bearer()).contentType(ContentType.JSON).body("{\"query\": ")
                .post("/v1/projects/{p}/memories/search", project).then().statusCode(400)
                .contentType("application/problem+json");
        given().header("Authorization", TENANT_A.bearer()).contentType(ContentType.JSON)
                .body(Map.of("query", "q", "limit", 0)).post("/v1/projects/{p}/memories/search", project)
                .then().statusCode(400).body("errors.field", org.hamcrest.Matchers.hasItem("limit"));
        given().header("Authorization", TENANT_A.bearer()).contentType(ContentType.JSON)
                .body(Map.of("helpful", "yes please")).post("/v1/memories/{id}/feedback",
                        "00000000-0000-0000-0000-000000000001").then().statusCode(400);
        given().header("Authorization", TENANT_A.bearer()).get("/v1/memories/not-a-uuid").then().statusCode(404);
        given().header("Authorization", TENANT_A.bearer()).contentType(ContentType.TEXT).body("title")
                .post("/v1/projects/{p}/memories", project).then().statusCode(415);
    }

    @Test
    void secretsAreScrubbedFromEverythingReturned() {
        String project = Memories.project();
        String aws = "AKIAIOSFODNN7EXAMPLE";
        String github = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8";
        String id = Memories.record(TENANT_A, project, "Deploy with the release key",
                "Export AWS_ACCESS_KEY_ID=" + aws + " and push with token " + github
                        + " to postgres://deploy:hunter2@db.internal:5432/app before the release.",
                "success", List.of()).getString("id");

        for (String text : List.of(Memories.get(TENANT_A, id).getString("content"),
                Memories.search(TENANT_A, project, "how do we deploy a release", null, null)
                        .getString("memories[0].content"),
                given().header("Authorization", TENANT_A.bearer()).queryParam("task", "deploy the release")
                        .get("/v1/projects/{p}/context", project).then().statusCode(200).extract().path("context"))) {
            assertThat(text).doesNotContain(aws).doesNotContain(github).doesNotContain("hunter2")
                    .contains("[REDACTED");
        }
    }

    @Test
    void contextInjectionIsAReadyBlockWithinTheTokenBudget() {
        String project = Memories.project();
        String first = Memories.record(TENANT_A, project, "Reproduce the bug with a failing test first",
                "Before changing code, write a test that fails for the reported bug; it proves the fix and guards "
                        + "against regressions.", "success", List.of("testing")).getString("id");
        Memories.record(TENANT_A, project, "Do not edit generated code",
                "Edits to generated sources were overwritten by the next build; change the generator input instead.",
                "failure", List.of("build"));

        JsonPath context = given().header("Authorization", TENANT_A.bearer())
                .queryParam("task", "fix the bug where invoices are rounded wrongly")
                .get("/v1/projects/{p}/context", project).then().statusCode(200).extract().jsonPath();
        assertThat(context.getInt("max_tokens")).isEqualTo(500);
        assertThat(context.getInt("estimated_tokens")).isPositive().isLessThanOrEqualTo(500);
        assertThat(context.getString("context")).contains("Reproduce the bug with a failing test first");
        assertThat(context.getList("memory_ids", String.class)).contains(first);
        Memories.awaitUsage(TENANT_A, first, 1);

        JsonPath tight = given().header("Authorization", TENANT_A.bearer()).queryParam("task", "fix a bug")
                .queryParam("max_tokens", 60).get("/v1/projects/{p}/context", project)
                .then().statusCode(200).extract().jsonPath();
        assertThat(tight.getInt("estimated_tokens")).isLessThanOrEqualTo(60);
        given().header("Authorization", TENANT_A.bearer()).get("/v1/projects/{p}/context", project)
                .then().statusCode(400).body("errors.field", org.hamcrest.Matchers.hasItem("task"));
    }
}
