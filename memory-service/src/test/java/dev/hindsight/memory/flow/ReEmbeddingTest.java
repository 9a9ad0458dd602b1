package dev.hindsight.memory.flow;

import static dev.hindsight.testing.TestTenants.TENANT_A;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.hindsight.events.memory.MemoryEmbedded;
import dev.hindsight.events.memory.MemoryEvent;
import dev.hindsight.events.memory.MemoryOrigin;
import dev.hindsight.events.memory.MemoryOutcome;
import dev.hindsight.events.memory.MemoryRecorded;
import dev.hindsight.memory.bank.MemoryEvents;
import dev.hindsight.memorymodel.embedding.Embeddings;
import dev.hindsight.memorymodel.embedding.OnnxEmbedder;
import dev.hindsight.memorymodel.search.SearchRule;
import dev.hindsight.memorymodel.search.VectorGenerations;
import dev.hindsight.testing.HindsightTestResource;
import dev.hindsight.testing.TestEvents;
import dev.hindsight.testing.TestTopics;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * Changing the embedding model (design.md § Re-embedding): memories written with the previous model (as the previous
 * configuration wrote them) are embedded again in the background while searches keep answering with the previous
 * model, and searches switch once the new generation covers every memory; the previous vectors are then deleted.
 */
@QuarkusTest
@TestProfile(ReEmbeddingTest.NewModel.class)
@QuarkusTestResource(HindsightTestResource.class)
class ReEmbeddingTest {

    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final String PREVIOUS = OnnxEmbedder.MINILM;
    private static final String CONFIGURED = OnnxEmbedder.BGE_SMALL;

    /** The service configured with bge-small while its memories have MiniLM vectors. */
    public static class NewModel implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("hindsight.memory.embedding.model", CONFIGURED,
                    "hindsight.memory.embedding.check-every", "200ms",
                    "hindsight.memory.embedding.retire-after", "1s",
                    "hindsight.memory.embedding.batch-size", "4");
        }
    }

    private static final List<String[]> LESSONS = List.of(
            new String[] {"Retry with exponential backoff", "When the payment API answers 503, retry with exponential "
                    + "backoff and jitter instead of failing the checkout."},
            new String[] {"Invalidate the cache on write", "Stale prices came from the product cache: evict the entry in "
                    + "the same transaction that updates the price."},
            new String[] {"Read files as UTF-8 explicitly", "The importer garbled accented names on Windows: pass "
                    + "StandardCharsets.UTF_8 instead of relying on the platform default."},
            new String[] {"Take locks in one order", "Two jobs deadlocked updating accounts and ledgers: always lock the "
                    + "account row before the ledger row."},
            new String[] {"Pin the formatter version", "Different formatter versions rewrote the same files in every "
                    + "pull request."},
            new String[] {"Bisect to find the regression", "Use git bisect with the failing test to find the commit."});

    @Inject
    Embeddings embeddings;

    @Inject
    Pool pool;

    @Test
    void aNewModelsGenerationIsBuiltWhileSearchesAnswerWithThePreviousOneThenSearchesSwitch() throws Exception {
        String project = "proj-" + UUID.randomUUID().toString().substring(0, 8);
        holdTheLease();   // the build waits until the memories and the first searches are in place
        for (String[] lesson : LESSONS) {
            writePrevious(project, lesson[0], lesson[1]);
        }
        await().atMost(WAIT).until(() -> list(project).getInt("count") == LESSONS.size());
        JsonPath before = status();
        assertThat(before.getString("search_model")).isEqualTo(PREVIOUS);
        assertThat(before.getString("configured_model")).isEqualTo(CONFIGURED);
        assertThat(before.getBoolean("building")).isTrue();
        assertThat(found(project, "how should I handle a flaky upstream that is temporarily unavailable"))
                .contains("Retry with exponential backoff");

        // Recorded during the build: embedded with the model searches use now, so it is found at once.
        String during = "Measure before optimising";
        record(project, during, "Profile the endpoint first: the slow part was JSON serialisation, not the query.");
        assertThat(found(project, "where does the time go in a slow request")).contains(during);

        // Searches run throughout the build, the switch and the deletion of the previous vectors.
        AtomicBoolean done = new AtomicBoolean();
        List<String> answeredBy = new ArrayList<>();
        List<String> failures = new ArrayList<>();
        CompletableFuture<Void> searcher = CompletableFuture.runAsync(() -> {
            while (!done.get()) {
                String modelBefore = status().getString("search_model");
                List<String> titles = found(project, "two background jobs block each other forever");
                String modelAfter = status().getString("search_model");
                if (!titles.contains("Take locks in one order")) {
                    failures.add("answered " + titles + " between " + modelBefore + " and " + modelAfter);
                }
                if (modelBefore.equals(modelAfter)) {
                    answeredBy.add(modelBefore);
                }
            }
        });
        releaseTheLease();

        JsonPath after = await().atMost(WAIT).until(this::status, s -> CONFIGURED.equals(s.getString("search_model"))
                && s.getMap("vectors").keySet().equals(java.util.Set.of(CONFIGURED)));
        done.set(true);
        searcher.get();
        assertThat(after.getBoolean("building")).isFalse();
        assertThat(after.getLong("vectors." + quoted(CONFIGURED))).isEqualTo(after.getLong("memories"));
        assertThat(failures).isEmpty();
        assertThat(answeredBy).contains(CONFIGURED);
        assertThat(found(project, "how should I handle a flaky upstream that is temporarily unavailable"))
                .contains("Retry with exponential backoff");
        assertThat(found(project, "where does the time go in a slow request")).contains(during);
        assertThat(vectorModels(project)).containsOnly(CONFIGURED);

        // The new vectors are events: replay stores them without embedding again.
        long embedded = TestTopics.read("hindsight.memory.v1", MemoryEvent.class,
                        e -> project.equals(e.getProjectId()) && e.getPayload() instanceof MemoryEmbedded m
                                && CONFIGURED.equals(m.getEmbedding().getModelId()), LESSONS.size() + 1, WAIT)
                .stream().map(r -> r.value().getMemoryId()).distinct().count();
        assertThat(embedded).isEqualTo(LESSONS.size() + 1);
    }

    @Test
    void aVectorOfTextTheMemoryNoLongerHoldsIsNotKept() {
        String project = "proj-" + UUID.randomUUID().toString().substring(0, 8);
        holdTheLease();   // nothing is built or deleted meanwhile
        try {
            UUID id = writePrevious(project, "Cache the token", "Reuse the OAuth token until it expires.");
            await().atMost(WAIT).until(() -> list(project).getInt("count") == 1);
            float[] vector = embeddings.embed(PREVIOUS, "anything").await().atMost(WAIT);
            // Same memory, same partition, in this order: the stale vector is applied before the fresh one.
            TestTopics.write("hindsight.memory.v1", id.toString(), embedded(project, id, "probe-stale", vector,
                    VectorGenerations.textVersion(null, "Reuse the OAuth token until it expires, merged.")));
            TestTopics.write("hindsight.memory.v1", id.toString(), embedded(project, id, "probe-fresh", vector,
                    VectorGenerations.textVersion(null, "Reuse the OAuth token until it expires.")));
            await().atMost(WAIT).until(() -> vectorModels(project).contains("probe-fresh"));
            assertThat(vectorModels(project)).doesNotContain("probe-stale");
        } finally {
            pool.query("DELETE FROM memory_vector WHERE model_id LIKE 'probe-%'").execute().await().atMost(WAIT);
            releaseTheLease();
        }
    }

    private UUID writePrevious(String project, String title, String content) {
        UUID id = UUID.randomUUID();
        float[] vector = embeddings.embed(PREVIOUS, SearchRule.embeddingText(title, null, content)).await().atMost(WAIT);
        MemoryEvent event = MemoryEvents.event(TestEvents.header(TENANT_A.tenant(),
                        Instant.now().truncatedTo(ChronoUnit.MILLIS)), project, id,
                MemoryRecorded.newBuilder().setOrigin(MemoryOrigin.EXPLICIT).setTitle(title).setContent(content)
                        .setOutcome(MemoryOutcome.SUCCESS).setEmbedding(MemoryEvents.embedding(PREVIOUS, vector))
                        .setVia("rest").build());
        TestTopics.write("hindsight.memory.v1", id.toString(), event);
        return id;
    }

    private static MemoryEvent embedded(String project, UUID id, String model, float[] vector, String version) {
        return MemoryEvents.event(TestEvents.header(TENANT_A.tenant(), Instant.now().truncatedTo(ChronoUnit.MILLIS)),
                project, id, MemoryEmbedded.newBuilder().setEmbedding(MemoryEvents.embedding(model, vector))
                        .setTextMd5(version).build());
    }

    private void holdTheLease() {
        pool.query("""
                INSERT INTO vector_keeper_lease (holder, until) VALUES ('the test', now() + interval '1 hour')
                ON CONFLICT (only_row) DO UPDATE SET holder = 'the test', until = now() + interval '1 hour'""")
                .execute().await().atMost(WAIT);
    }

    private void releaseTheLease() {
        pool.query("DELETE FROM vector_keeper_lease").execute().await().atMost(WAIT);
    }

    private List<String> vectorModels(String project) {
        List<String> models = new ArrayList<>();
        pool.preparedQuery("SELECT model_id FROM memory_vector WHERE project_id = $1").execute(Tuple.of(project))
                .await().atMost(WAIT).forEach(row -> models.add(row.getString(0)));
        return models;
    }

    private JsonPath status() {
        return given().header("Authorization", TENANT_A.bearer()).get("/v1/admin/embeddings")
                .then().statusCode(200).extract().jsonPath();
    }

    private static String quoted(String key) {
        return "'" + key + "'";
    }

    private static List<String> found(String project, String query) {
        return given().header("Authorization", TENANT_A.bearer()).contentType(ContentType.JSON)
                .body(Map.of("query", query, "limit", 3)).post("/v1/projects/{p}/memories/search", project)
                .then().statusCode(200).extract().jsonPath().getList("memories.title", String.class);
    }

    private static void record(String project, String title, String content) {
        given().header("Authorization", TENANT_A.bearer()).contentType(ContentType.JSON)
                .body(Map.of("title", title, "content", content, "outcome", "success"))
                .post("/v1/projects/{p}/memories", project).then().statusCode(201);
    }

    private static JsonPath list(String project) {
        var response = given().header("Authorization", TENANT_A.bearer()).get("/v1/projects/{p}/memories", project);
        return response.statusCode() == 200 ? response.jsonPath() : JsonPath.from("{\"count\": 0, \"memories\": []}");
    }
}
