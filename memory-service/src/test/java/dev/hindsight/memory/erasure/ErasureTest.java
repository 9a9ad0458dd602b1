package dev.hindsight.memory.erasure;

import static dev.hindsight.testing.TestTenants.ERASED;
import static dev.hindsight.testing.TestTenants.TENANT_A;
import static dev.hindsight.testing.TestTenants.TENANT_B;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.hindsight.events.datakeys.DataKeyCreated;
import dev.hindsight.events.datakeys.DataKeyDestroyed;
import dev.hindsight.events.datakeys.DataKeyEvent;
import dev.hindsight.events.erasures.ErasureApplied;
import dev.hindsight.events.erasures.ErasureEvent;
import dev.hindsight.events.erasures.ErasureRequested;
import dev.hindsight.events.erasures.ErasureSelector;
import dev.hindsight.events.memory.MemoryEvent;
import dev.hindsight.events.memory.MemoryMerged;
import dev.hindsight.events.memory.MemoryOrigin;
import dev.hindsight.events.memory.MemoryOutcome;
import dev.hindsight.events.memory.MemoryRecorded;
import dev.hindsight.events.memory.MemoryRestated;
import dev.hindsight.events.memory.MemorySignalKind;
import dev.hindsight.events.memory.MemoryTextPart;
import dev.hindsight.memory.bank.MemoryEvents;
import dev.hindsight.memory.bank.MemoryLog;
import dev.hindsight.memory.work.SignalRollupJob;
import dev.hindsight.memorymodel.embedding.Embeddings;
import dev.hindsight.memorymodel.search.SearchRule;
import dev.hindsight.platform.erasure.ErasureApplier;
import dev.hindsight.platform.erasure.ErasureLog;
import dev.hindsight.platform.tenant.TenantId;
import dev.hindsight.testing.HindsightTestResource;
import dev.hindsight.testing.TestEvents;
import dev.hindsight.testing.TestKafka;
import dev.hindsight.testing.TestTopics;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * An erasure reaches memory-service through the erasure log (issue #48, ADR 0028), and the service applies it once:
 * a memory whose text came from an erased session is deleted with its vectors and keys; a memory that only counts it
 * among its sources survives without it and without what it gave its confidence (rolled-up signals included), written
 * again under a new key while its old keys are destroyed; a memory it only used loses its signals; what the distiller
 * kept of the session is gone; the same session id in another tenant, and the sessions kept, are untouched.
 */
@QuarkusTest
@QuarkusTestResource(HindsightTestResource.class)
class ErasureTest {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String MEMORIES = "hindsight.memory.v1";
    private static final String DATA_KEYS = "hindsight.datakeys.v1";
    private static final String ERASURES = "hindsight.erasures.v1";

    @Inject
    MemoryLog log;

    @Inject
    Embeddings embeddings;

    @Inject
    SignalRollupJob rollup;

    @Inject
    ErasureApplier applier;

    @Inject
    ErasureLog erasures;

    @Inject
    Pool pool;

    @Test
    void anErasedSessionLeavesTheBankEverywhereAndOnlyIt() {
        String project = "proj-" + UUID.randomUUID().toString().substring(0, 8);
        String erased = "s1-" + UUID.randomUUID();
        String kept = "s2-" + UUID.randomUUID();
        String other = "s3-" + UUID.randomUUID();

        // Written by the erased session: its text came from it. In a project of its own, which the searches below
        // look in: a search gives what it returns a usage signal.
        String searched = "proj-" + UUID.randomUUID().toString().substring(0, 8);
        UUID fromErased = record(TENANT_A.tenant(), searched, "Retry the payment webhook with backoff",
                "When the provider times out, retry the webhook with exponential backoff and jitter.", erased);
        record(TENANT_A.tenant(), searched, "Idempotency keys on payment callbacks",
                "Store each callback's idempotency key so that a retried webhook is applied once.", other);
        // Written by the kept session; the erased one's draft was merged into it later without replacing its text.
        UUID merged = record(TENANT_A.tenant(), project, "Pin the database driver version",
                "A driver upgrade changed how timestamps were read; pin the driver and upgrade deliberately.", kept);
        append(event(TENANT_A.tenant(), project, merged, MemoryMerged.newBuilder()
                .setDescription(null).setContent("A driver upgrade changed how timestamps were read; pin the driver "
                        + "and upgrade deliberately.")
                .setTags(List.of("kind:debug", "language:java")).setSourceSessionIds(List.of(kept, erased))
                .setMergedSessionId(erased).setSimilarity(0.93).build()));
        // Written by another session, whose content the erased session's draft replaced: deleted too.
        UUID replaced = record(TENANT_A.tenant(), project, "Warm the cache after a deploy",
                "Warm the cache.", other);
        String richer = "Warm the product cache after each deploy by replaying the hundred most requested pages, "
                + "because cold caches tripled checkout latency during the first minutes.";
        append(event(TENANT_A.tenant(), project, replaced, MemoryMerged.newBuilder().setContent(richer)
                .setTags(List.of("kind:debug")).setSourceSessionIds(List.of(other, erased))
                .setEmbedding(MemoryEvents.embedding(embeddings.preferred(), embeddings.embed(embeddings.preferred(),
                        SearchRule.embeddingText("Warm the cache after a deploy", null, richer)).await().atMost(WAIT)))
                .setMergedSessionId(erased).setSimilarity(0.91).build()));
        // Deleted before the erasure: its events still hold the erased session's text, under keys nobody destroyed.
        UUID deletedBefore = record(TENANT_A.tenant(), project, "Rotate the signing key yearly",
                "Rotate the webhook signing key every year and accept both keys for a day.", erased);
        given().header("Authorization", TENANT_A.bearer()).delete("/v1/memories/{id}", deletedBefore).then()
                .statusCode(204);
        // Only used by the erased session.
        UUID used = record(TENANT_A.tenant(), project, "Read the flame graph before optimising",
                "Measure where the time goes before changing code.", other);
        // The same session id in another tenant names another session.
        UUID elsewhere = record(TENANT_B.tenant(), project, "Retry the payment webhook with backoff",
                "When the provider times out, retry the webhook with exponential backoff and jitter.", erased);

        // Signals: some rolled up (their session kept in the aggregate), some individual.
        append(signal(TENANT_A.tenant(), project, merged, MemorySignalKind.USAGE, true, erased),
                signal(TENANT_A.tenant(), project, merged, MemorySignalKind.EXPLICIT, true, kept),
                signal(TENANT_A.tenant(), project, used, MemorySignalKind.USAGE, true, erased));
        rollup.rollUp(Instant.now().plus(1, ChronoUnit.DAYS)).await().atMost(WAIT);
        append(signal(TENANT_A.tenant(), project, merged, MemorySignalKind.OUTCOME, true, erased),
                signal(TENANT_A.tenant(), project, merged, MemorySignalKind.USAGE, true, kept),
                signal(TENANT_A.tenant(), project, used, MemorySignalKind.USAGE, true, null));

        // What the distiller kept of the sessions.
        for (String[] session : List.of(new String[] {TENANT_A.tenant(), erased},
                new String[] {TENANT_A.tenant(), kept}, new String[] {TENANT_B.tenant(), erased})) {
            track(session[0], session[1]);
        }

        assertThat(memory(merged)).containsEntry("explicit_positive", 1L).containsEntry("usage_count", 2L)
                .containsEntry("outcome_positive", 1L);
        assertThat(sources(merged)).containsExactly(kept, erased);
        assertThat(count("SELECT count(*) FROM session_memory_use WHERE tenant_id = $1 AND session_id = $2",
                TENANT_A.tenant(), erased)).isEqualTo(2);
        assertThat(found(searched, "payment webhook retries")).contains(fromErased.toString());
        assertThat(count("SELECT count(*) FROM deleted_memory WHERE tenant_id = $1 AND memory_id = $2",
                TENANT_A.tenant(), deletedBefore)).isEqualTo(1);
        Set<String> keysBefore = keysOwnedBy(Set.of(fromErased.toString(), merged.toString(), replaced.toString(),
                deletedBefore.toString()));
        assertThat(keysBefore).isNotEmpty();

        String erasure = publishErasure(TENANT_A.tenant(), ErasureSelector.SESSIONS, List.of(erased));
        Map<String, Long> counts = applied(erasure);

        assertThat(counts).containsEntry("memories_deleted", 2L).containsEntry("memories_rekeyed", 1L)
                .containsEntry("deleted_memories_shredded", 1L)
                .containsEntry("memories_restated", 1L).containsEntry("tracked_sessions", 1L)
                .containsEntry("tracked_turns", 1L).containsEntry("tracked_activities", 1L)
                .containsEntry("memory_jobs", 1L).containsEntry("signals_subtracted", 3L);

        // Deleted, with its vectors of every generation.
        assertThat(count("SELECT count(*) FROM memory WHERE tenant_id = $1 AND id = ANY($2)", TENANT_A.tenant(),
                new UUID[] {fromErased, replaced})).isZero();
        assertThat(count("SELECT count(*) FROM deleted_memory WHERE tenant_id = $1 AND session_ids && $2",
                TENANT_A.tenant(), new String[] {erased})).isZero();
        assertThat(count("SELECT count(*) FROM memory_vector WHERE tenant_id = $1 AND memory_id = $2",
                TENANT_A.tenant(), fromErased)).isZero();
        given().header("Authorization", TENANT_A.bearer()).get("/v1/memories/{id}", fromErased).then()
                .statusCode(404);
        assertThat(found(searched, "payment webhook retries")).doesNotContain(fromErased.toString()).isNotEmpty();

        // Survives without the erased source and what it gave: one usage and one outcome, rolled up or not.
        assertThat(sources(merged)).containsExactly(kept);
        assertThat(memory(merged)).containsEntry("explicit_positive", 1L).containsEntry("usage_count", 1L)
                .containsEntry("outcome_positive", 0L);
        assertThat(count("""
                SELECT count(*) FROM memory_signal_aggregate WHERE memory_id = $1 AND session_id = $2""",
                merged, erased)).isZero();
        assertThat(count("SELECT count(*) FROM memory_vector WHERE tenant_id = $1 AND memory_id = $2",
                TENANT_A.tenant(), merged)).isEqualTo(1);
        assertThat(memory(used)).containsEntry("usage_count", 1L);

        // The service's own state about the erased session is gone; the kept session's, and tenant B's, are not.
        for (String table : List.of("tracked_session", "tracked_turn", "tracked_activity", "memory_job",
                "session_memory_use")) {
            assertThat(count("SELECT count(*) FROM " + table + " WHERE tenant_id = $1 AND session_id = $2",
                    TENANT_A.tenant(), erased)).as(table).isZero();
        }
        assertThat(count("SELECT count(*) FROM tracked_session WHERE tenant_id = $1 AND session_id = $2",
                TENANT_A.tenant(), kept)).isEqualTo(1);
        assertThat(count("SELECT count(*) FROM tracked_turn WHERE tenant_id = $1 AND session_id = $2",
                TENANT_B.tenant(), erased)).isEqualTo(1);
        assertThat(sources(elsewhere)).containsExactly(erased);

        // On the log: every key the deleted and the surviving memory had is destroyed, so their earlier events are
        // erased; the deletion and the survivor's whole state are readable under keys made since.
        Map<String, KeyState> keys = keys();
        assertThat(keysBefore).allSatisfy(key -> assertThat(keys.get(key).destroyed()).as(key).isTrue());
        assertThat(keysOwnedBy(Set.of(elsewhere.toString()))).isNotEmpty()
                .allSatisfy(key -> assertThat(keys.get(key).destroyed()).isFalse());
        assertThat(keysOwnedBy(Set.of(used.toString()))).isNotEmpty()
                .allSatisfy(key -> assertThat(keys.get(key).destroyed()).isFalse());
        List<MemoryEvent> readable = TestTopics.readAll(TestKafka.bootstrapServers(), MEMORIES, MemoryEvent.class);
        assertThat(readable).filteredOn(e -> fromErased.toString().equals(e.getMemoryId()))
                .extracting(e -> e.getPayload().getClass().getSimpleName()).containsExactly("MemoryDeleted");
        List<MemoryEvent> survivor = readable.stream().filter(e -> merged.toString().equals(e.getMemoryId()))
                .toList();
        assertThat(survivor).extracting(e -> e.getPayload().getClass().getSimpleName())
                .containsExactly("MemoryRestated");
        MemoryRestated restated = (MemoryRestated) survivor.get(0).getPayload();
        assertThat(restated.getMemory().getSourceSessionIds()).containsExactly(kept);
        assertThat(restated.getSignals()).containsOnlyKeys(kept);
        assertThat(restated.getSignals().get(kept).getExplicitPositive()).isEqualTo(1);
        assertThat(restated.getSignals().get(kept).getUsage()).isEqualTo(1);
        assertThat(restated.getTextSources()).containsOnlyKeys(kept);
        assertThat(restated.getTextSources().get(kept)).containsExactlyInAnyOrder(MemoryTextPart.TITLE,
                MemoryTextPart.DESCRIPTION, MemoryTextPart.CONTENT);
        assertThat(readable).filteredOn(e -> used.toString().equals(e.getMemoryId()))
                .extracting(e -> e.getPayload().getClass().getSimpleName())
                .contains("MemoryRecorded", "MemoryRestated");

        // A signal of the erased session still on its way is not counted; a new one of the kept session is, under a
        // key that works.
        append(signal(TENANT_A.tenant(), project, merged, MemorySignalKind.USAGE, true, erased),
                signal(TENANT_A.tenant(), project, merged, MemorySignalKind.OUTCOME, false, kept));
        assertThat(memory(merged)).containsEntry("usage_count", 1L).containsEntry("outcome_negative", 1L);

        // Applied once: again (a restart, another replica) it changes nothing.
        ErasureLog.Erasure again = erasures.get(TenantId.of(TENANT_A.tenant()), erasure).orElseThrow();
        assertThat(applier.apply(again).await().atMost(WAIT)).isEqualTo(Optional.empty());
        assertThat(memory(merged)).containsEntry("usage_count", 1L);
    }

    @Test
    void anErasedTenantLeavesNothingBehindAndNoKeyAlive() {
        String project = "proj-" + UUID.randomUUID().toString().substring(0, 8);
        String session = "s-" + UUID.randomUUID();
        UUID memory = record(ERASED.tenant(), project, "Cache the compiled templates",
                "Compile each template once and keep it; compiling on every request doubled latency.", session);
        append(signal(ERASED.tenant(), project, memory, MemorySignalKind.USAGE, true, session));
        track(ERASED.tenant(), session);
        UUID bystander = record(TENANT_A.tenant(), project, "Cache the compiled templates",
                "Compile each template once and keep it; compiling on every request doubled latency.", session);

        String erasure = publishErasure(ERASED.tenant(), ErasureSelector.TENANT, List.of());
        Map<String, Long> counts = applied(erasure);

        assertThat(counts).containsEntry("memories_deleted", 1L).containsEntry("tracked_sessions", 1L);
        for (String table : List.of("memory", "memory_vector", "session_memory_use", "tracked_session",
                "tracked_turn", "tracked_activity", "memory_job", "project_weights")) {
            assertThat(count("SELECT count(*) FROM " + table + " WHERE tenant_id = $1", ERASED.tenant()))
                    .as(table).isZero();
        }
        Map<String, KeyState> keys = keys();
        assertThat(keys.values()).filteredOn(k -> ERASED.tenant().equals(k.tenant())).isNotEmpty()
                .allSatisfy(k -> assertThat(k.destroyed()).isTrue());
        assertThat(sources(bystander)).containsExactly(session);
        assertThat(keysOwnedBy(Set.of(bystander.toString())))
                .allSatisfy(key -> assertThat(keys.get(key).destroyed()).isFalse());
    }

    /**
     * Records a memory from {@code session}, so that its text came from it: explicit, so that a search finds it at
     * once (a distilled one starts on probation).
     */
    private UUID record(String tenant, String project, String title, String content, String session) {
        UUID id = UUID.randomUUID();
        float[] vector = embeddings.embed(embeddings.preferred(), SearchRule.embeddingText(title, null, content))
                .await().atMost(WAIT);
        append(event(tenant, project, id, MemoryRecorded.newBuilder().setOrigin(MemoryOrigin.EXPLICIT)
                .setTitle(title).setContent(content).setOutcome(MemoryOutcome.SUCCESS)
                .setTags(List.of("kind:debug")).setSourceSessionIds(List.of(session))
                .setEmbedding(MemoryEvents.embedding(embeddings.preferred(), vector)).setVia("distiller").build()));
        return id;
    }

    private static MemoryEvent event(String tenant, String project, UUID memory, Object payload) {
        return MemoryEvents.event(MemoryEvents.header(null, TenantId.of(tenant), "test", null,
                java.time.Clock.systemUTC()), project, memory, payload);
    }

    private static MemoryEvent signal(String tenant, String project, UUID memory, MemorySignalKind kind,
            boolean positive, String session) {
        return event(tenant, project, memory, MemoryEvents.signal(kind, positive, session, "test", null));
    }

    private void append(MemoryEvent... events) {
        log.append(List.of(events)).await().atMost(WAIT);
    }

    /** A session as the distiller keeps it: the session, a turn, an activity and its pending distillation. */
    private void track(String tenant, String session) {
        pool.withTransaction(tx -> tx.preparedQuery("""
                        INSERT INTO tracked_session (tenant_id, session_id, kind, task)
                        VALUES ($1, $2, 'chat', 'a task')""")
                .execute(Tuple.of(tenant, session))
                .flatMap(v -> tx.preparedQuery("""
                        INSERT INTO tracked_turn (tenant_id, session_id, message_index, role, content)
                        VALUES ($1, $2, 0, 'user', 'what people wrote')""").execute(Tuple.of(tenant, session)))
                .flatMap(v -> tx.preparedQuery("""
                        INSERT INTO tracked_activity (tenant_id, session_id, event_id, occurred_at, type, content)
                        VALUES ($1, $2, $3, now(), 'thought', 'what an agent wrote')""")
                        .execute(Tuple.of(tenant, session, UUID.randomUUID())))
                .flatMap(v -> tx.preparedQuery("""
                        INSERT INTO memory_job (tenant_id, session_id, kind, due_at)
                        VALUES ($1, $2, 'distill', now() + interval '1 hour')""").execute(Tuple.of(tenant, session))))
                .await().atMost(WAIT);
    }

    /** Publishes an erasure as ingest does once it has destroyed the sessions' own keys; answers its id. */
    private static String publishErasure(String tenant, ErasureSelector selector, List<String> sessions) {
        String id = UUID.randomUUID().toString();
        TestTopics.write(ERASURES, id, ErasureEvent.newBuilder().setHeader(TestEvents.header(tenant, null))
                .setErasureId(id).setPayload(ErasureRequested.newBuilder().setSelector(selector)
                        .setSessionIds(sessions).build()).build());
        return id;
    }

    /** What memory-service said on the erasure log that it erased. */
    private static Map<String, Long> applied(String erasure) {
        List<ConsumerRecord<String, ErasureEvent>> said = TestTopics.read(ERASURES, ErasureEvent.class,
                e -> erasure.equals(e.getErasureId()) && e.getPayload() instanceof ErasureApplied applied
                        && "memory-service".equals(applied.getService()), 1, WAIT);
        assertThat(said).as("memory-service applied erasure " + erasure).hasSize(1);
        Map<String, Long> counts = new HashMap<>();
        ((ErasureApplied) said.get(0).value().getPayload()).getErased().forEach((k, v) -> counts.put(k.toString(), v));
        return counts;
    }

    private List<String> found(String project, String query) {
        return given().header("Authorization", TENANT_A.bearer()).contentType(ContentType.JSON)
                .body(Map.of("query", query, "limit", 10)).post("/v1/projects/{p}/memories/search", project)
                .then().statusCode(200).extract().jsonPath().getList("memories.id", String.class);
    }

    private Map<String, Long> memory(UUID id) {
        JsonPath memory = given().header("Authorization", TENANT_A.bearer()).get("/v1/memories/{id}", id).then()
                .statusCode(200).extract().jsonPath();
        Row row = pool.preparedQuery("""
                        SELECT explicit_positive, explicit_negative, usage_count, outcome_positive, outcome_negative
                        FROM memory WHERE id = $1""").execute(Tuple.of(id))
                .await().atMost(WAIT).iterator().next();
        assertThat(memory.getString("id")).isEqualTo(id.toString());
        return Map.of("explicit_positive", row.getLong(0), "explicit_negative", row.getLong(1),
                "usage_count", row.getLong(2), "outcome_positive", row.getLong(3), "outcome_negative", row.getLong(4));
    }

    private List<String> sources(UUID id) {
        return List.of(pool.preparedQuery("SELECT source_session_ids FROM memory WHERE id = $1")
                .execute(Tuple.of(id)).await().atMost(WAIT).iterator().next().getArrayOfStrings(0));
    }

    private long count(String sql, Object... args) {
        return pool.preparedQuery(sql).execute(Tuple.from(args)).await().atMost(WAIT).iterator().next().getLong(0);
    }

    /** A data key as the key topic says now. */
    private record KeyState(String tenant, String owner, boolean destroyed) {
    }

    private static Map<String, KeyState> keys() {
        Map<String, KeyState> keys = new HashMap<>();
        for (DataKeyEvent event : TestTopics.readAll(TestKafka.bootstrapServers(), DATA_KEYS, DataKeyEvent.class)) {
            KeyState before = keys.get(event.getKeyId());
            if (event.getPayload() instanceof DataKeyCreated created) {
                keys.put(event.getKeyId(), new KeyState(event.getHeader().getTenantId(), created.getOwner(),
                        before != null && before.destroyed()));
            } else if (event.getPayload() instanceof DataKeyDestroyed) {
                keys.put(event.getKeyId(), new KeyState(event.getHeader().getTenantId(),
                        before == null ? null : before.owner(), true));
            }
        }
        return keys;
    }

    private static Set<String> keysOwnedBy(Set<String> owners) {
        Set<String> owned = new HashSet<>();
        keys().forEach((id, key) -> {
            if (owners.contains(key.owner())) {
                owned.add(id);
            }
        });
        return owned;
    }
}
