package dev.hindsight.query.memory;

import static dev.hindsight.query.memory.MemoryPagesTest.encode;
import static dev.hindsight.query.memory.MemoryPagesTest.event;
import static dev.hindsight.query.memory.MemoryPagesTest.ids;
import static dev.hindsight.query.memory.MemoryPagesTest.page;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.hindsight.events.memory.MemoryEmbedded;
import dev.hindsight.events.memory.MemoryEvent;
import dev.hindsight.events.memory.MemoryOrigin;
import dev.hindsight.events.memory.MemoryOutcome;
import dev.hindsight.events.memory.MemoryRecorded;
import dev.hindsight.memorymodel.embedding.Embeddings;
import dev.hindsight.memorymodel.embedding.OnnxEmbedder;
import dev.hindsight.memorymodel.events.EmbeddingVectors;
import dev.hindsight.memorymodel.search.SearchModel;
import dev.hindsight.memorymodel.search.SearchRule;
import dev.hindsight.memorymodel.search.VectorGenerations;
import dev.hindsight.query.console.SignedIn;
import dev.hindsight.query.readmodel.Generations;
import dev.hindsight.query.readmodel.ReadModel;
import dev.hindsight.testing.HindsightTestResource;
import dev.hindsight.testing.TestTenants;
import dev.hindsight.testing.TestTopics;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The console follows memory-service's change of embedding model (design.md § Re-embedding): while the new model's
 * vectors arrive (MemoryEmbedded events, written here as memory-service's build writes them) it keeps searching with
 * the previous model, switches once they cover every memory, and then deletes the previous vectors from its read model.
 */
@QuarkusTest
@TestProfile(ConsoleReEmbeddingTest.NewModel.class)
@QuarkusTestResource(HindsightTestResource.class)
class ConsoleReEmbeddingTest {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String PREVIOUS = OnnxEmbedder.MINILM;
    private static final String CONFIGURED = OnnxEmbedder.BGE_SMALL;
    private static final String QUESTION = "why did my two database transactions deadlock?";

    /** query-service configured with bge-small, as memory-service is, while the read model has MiniLM vectors. */
    public static class NewModel implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("hindsight.memory.embedding.model", CONFIGURED,
                    "hindsight.memory.embedding.check-every", "200ms",
                    "hindsight.memory.embedding.retire-after", "1s");
        }
    }

    @Inject
    Embeddings embeddings;

    @Inject
    MemoryVectors vectors;

    @Inject
    Generations generations;

    @Inject
    Pool pool;

    @Test
    void theConsoleSearchesWithThePreviousModelUntilTheNewOneCoversEveryMemoryThenSwitches() {
        String project = "repo-" + UUID.randomUUID();
        Instant at = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        UUID retry = record(project, at, "Retry flaky HTTP calls with exponential backoff",
                "Wrap calls to the payments API in a retry with exponential backoff and jitter.");
        UUID locks = record(project, at, "Take locks in one global order",
                "Two transactions deadlocked because they locked accounts in opposite order; sort account ids first.");
        UUID cache = record(project, at, "Invalidate the cache on schema change",
                "After a schema migration, clear the query cache or readers keep decoding rows with the old layout.");
        String cookie = SignedIn.cookie(TestTenants.TENANT_A);
        String list = "/ui/projects/" + project + "/memories";
        await().atMost(WAIT).untilAsserted(() -> assertThat(ids(page(cookie, list))).hasSize(3));
        assertThat(state().current()).isEqualTo(PREVIOUS);
        assertThat(firstFound(cookie, list)).isEqualTo(locks);

        // Every memory but one gets its new vector: the new generation is incomplete, searches keep the previous model.
        embedEveryMemoryLacking(List.of(cache));
        await().atMost(WAIT).until(() -> vectorsOf(project, CONFIGURED) == 2);
        assertThat(state().current()).isEqualTo(PREVIOUS);
        assertThat(firstFound(cookie, list)).isEqualTo(locks);
        assertThat(page(cookie, "/ui/ops")).as("the operations page")
                .contains("id=\"search-model\" data-model=\"" + PREVIOUS + "\" data-building=\"true\"")
                .contains("the vectors of\n    <strong>" + CONFIGURED + "</strong>");

        // A vector of text the memory no longer holds (a merge came in between) is not kept; the right one is.
        write(cache, embedded(project, cache, "probe-stale", vector(CONFIGURED, "The cache, merged."),
                VectorGenerations.textVersion(null, "The cache, merged.")));
        await().atMost(WAIT).until(() -> {
            embedEveryMemoryLacking(List.of());   // and whatever else the read model holds, as memory-service would
            return state().current().equals(CONFIGURED);
        });
        assertThat(vectorsOf(project, "probe-stale")).isZero();
        assertThat(vectorsOf(project, CONFIGURED)).isEqualTo(3);
        assertThat(firstFound(cookie, list)).isEqualTo(locks);
        assertThat(page(cookie, "/ui/ops"))
                .contains("id=\"search-model\" data-model=\"" + CONFIGURED + "\" data-building=\"false\"");

        // The previous model's vectors go once the console has searched with the new one for retire-after.
        await().atMost(WAIT).until(() -> vectorsOf(project, PREVIOUS) == 0);
        assertThat(firstFound(cookie, list)).isEqualTo(locks);
        assertThat(ids(page(cookie, list))).containsExactlyInAnyOrder(retry, locks, cache);
    }

    private UUID firstFound(String cookie, String list) {
        List<UUID> found = ids(page(cookie, list + "?q=" + encode(QUESTION)));
        assertThat(found).isNotEmpty();
        return found.get(0);
    }

    private SearchModel.State state() {
        return vectors.refresh().await().atMost(WAIT);
    }

    private UUID record(String project, Instant at, String title, String content) {
        UUID id = UUID.randomUUID();
        write(id, event(project, id, at, MemoryRecorded.newBuilder().setOrigin(MemoryOrigin.EXPLICIT).setTitle(title)
                .setContent(content).setOutcome(MemoryOutcome.SUCCESS)
                .setEmbedding(EmbeddingVectors.embedding(PREVIOUS,
                        vector(PREVIOUS, SearchRule.embeddingText(title, null, content))))
                .setVia("rest").build()));
        return id;
    }

    /** What memory-service's build publishes: the configured model's vector of each memory that lacks one. */
    private void embedEveryMemoryLacking(List<UUID> except) {
        ReadModel rm = generations.current().await().atMost(WAIT);
        var rows = pool.preparedQuery(rm.sql("""
                SELECT m.memory_id, m.project_id, m.title, m.description, m.content FROM {rm}.memory m
                WHERE NOT EXISTS (SELECT 1 FROM {rm}.memory_vector v
                                  WHERE v.tenant_id = m.tenant_id AND v.memory_id = m.memory_id AND v.model_id = $1)"""))
                .execute(Tuple.of(CONFIGURED)).await().atMost(WAIT);
        for (Row row : rows) {
            UUID id = row.getUUID(0);
            if (!except.contains(id)) {
                String description = row.getString(3);
                String content = row.getString(4);
                write(id, embedded(row.getString(1), id, CONFIGURED,
                        vector(CONFIGURED, SearchRule.embeddingText(row.getString(2), description, content)),
                        VectorGenerations.textVersion(description, content)));
            }
        }
    }

    private static MemoryEvent embedded(String project, UUID id, String model, float[] vector, String version) {
        return event(project, id, Instant.now().truncatedTo(ChronoUnit.MILLIS), MemoryEmbedded.newBuilder()
                .setEmbedding(EmbeddingVectors.embedding(model, vector)).setTextMd5(version).build());
    }

    private float[] vector(String model, String text) {
        return embeddings.embed(model, text).await().atMost(WAIT);
    }

    private long vectorsOf(String project, String model) {
        ReadModel rm = generations.current().await().atMost(WAIT);
        return pool.preparedQuery(rm.sql("SELECT count(*) FROM {rm}.memory_vector WHERE project_id = $1 AND model_id = $2"))
                .execute(Tuple.of(project, model)).await().atMost(WAIT).iterator().next().getLong(0);
    }

    private static void write(UUID key, MemoryEvent event) {
        TestTopics.write("hindsight.memory.v1", key.toString(), event);
    }
}
