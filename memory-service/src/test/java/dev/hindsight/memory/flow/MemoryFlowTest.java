package dev.hindsight.memory.flow;

import static dev.hindsight.testing.TestTenants.TENANT_A;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.hindsight.events.EventHeader;
import dev.hindsight.events.insights.InsightEvent;
import dev.hindsight.events.insights.InsightStatus;
import dev.hindsight.events.insights.RubricScore;
import dev.hindsight.events.insights.SessionSummarized;
import dev.hindsight.events.insights.TraceJudged;
import dev.hindsight.events.memory.MemoryEvent;
import dev.hindsight.events.memory.MemoryOrigin;
import dev.hindsight.events.memory.MemoryOutcome;
import dev.hindsight.events.memory.MemoryRecorded;
import dev.hindsight.events.memory.MemorySignalKind;
import dev.hindsight.events.reasoning.ActivityRecorded;
import dev.hindsight.events.reasoning.CommandRun;
import dev.hindsight.events.reasoning.DebugAttributes;
import dev.hindsight.events.reasoning.FileEdit;
import dev.hindsight.events.reasoning.MessageRecorded;
import dev.hindsight.events.reasoning.MessageRole;
import dev.hindsight.events.reasoning.SessionCompleted;
import dev.hindsight.events.reasoning.SessionKind;
import dev.hindsight.events.reasoning.SessionOutcome;
import dev.hindsight.events.reasoning.SessionStarted;
import dev.hindsight.events.reasoning.ThoughtLog;
import dev.hindsight.memory.bank.MemoryEvents;
import dev.hindsight.memory.work.SignalRollupJob;
import dev.hindsight.memorymodel.embedding.Embeddings;
import dev.hindsight.platform.consumer.LedgerPruning;
import dev.hindsight.testing.HindsightTestResource;
import dev.hindsight.testing.TestEvents;
import dev.hindsight.testing.TestTopics;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * memory-service fed by the other services' topics: sessions are distilled into memories (and a near-duplicate is
 * merged), a session's outcome counts for the memories it retrieved, another replica's events are projected, and the
 * rollup keeps confidence as it was.
 */
@QuarkusTest
@QuarkusTestResource(HindsightTestResource.class)
class MemoryFlowTest {

    private static final Duration WAIT = Duration.ofSeconds(60);

    @Inject
    SignalRollupJob rollup;

    @Inject
    Embeddings embeddings;

    @Inject
    io.vertx.mutiny.sqlclient.Pool pool;

    @Inject
    LedgerPruning ledger;

    @Test
    void aCompletedDebuggingSessionIsDistilledAndALaterSimilarOneIsMergedIntoIt() {
        String project = "proj-" + UUID.randomUUID().toString().substring(0, 8);
        String first = "trace-" + UUID.randomUUID();
        debugSession(first, project);

        JsonPath distilled = await().atMost(WAIT).until(() -> list(project), page -> page.getInt("count") >= 1);
        assertThat(distilled.getString("memories[0].origin")).isEqualTo("distilled");
        assertThat(distilled.getString("memories[0].outcome")).isEqualTo("success");
        assertThat(distilled.getDouble("memories[0].confidence")).isEqualTo(0.6);
        assertThat(distilled.getList("memories[0].source_session_ids", String.class)).containsExactly(first);
        assertThat(distilled.getList("memories[0].tags", String.class)).contains("kind:debug");
        int memories = distilled.getInt("count");

        String second = "trace-" + UUID.randomUUID();
        debugSession(second, project);
        JsonPath merged = await().atMost(WAIT).until(() -> list(project), page -> page.getList(
                "memories.source_session_ids.flatten()", String.class).contains(second));
        assertThat(merged.getInt("count")).isEqualTo(memories);
    }

    @Test
    void aDistilledMemoryReachesSearchOnProbationAndEarnsItsPlaceThroughUse() {
        String project = "proj-" + UUID.randomUUID().toString().substring(0, 8);
        record(project, "Bisect to find the regression", "Use git bisect with the failing test to find the commit.");
        record(project, "Pin the formatter version", "Different formatter versions rewrote the same files.");
        debugSession("trace-" + UUID.randomUUID(), project);
        JsonPath listed = await().atMost(WAIT).until(() -> list(project), page -> page.getInt("count") == 3);
        String distilled = listed.getString("memories.find { it.origin == 'distilled' }.id");
        String query = "the profile page crashes for accounts that have no email address";

        // A context goes into a prompt: it holds confident memories only, never one on probation.
        List<String> inContext = given().header("Authorization", TENANT_A.bearer()).queryParam("task", query)
                .get("/v1/projects/{p}/context", project).then().statusCode(200).extract().jsonPath()
                .getList("memory_ids", String.class);
        assertThat(inContext).hasSize(2).doesNotContain(distilled);

        // A one-result answer is always a confident memory, even though the distilled one is the most similar.
        JsonPath one = search(project, query, 1);
        assertThat(one.getList("memories.id", String.class)).hasSize(1).doesNotContain(distilled);
        assertThat(one.getBoolean("memories[0].probation")).isFalse();

        // Below 0.7 it is shown in the probation slot, in its place by similarity, and marked.
        JsonPath first = search(project, query, 5);
        assertThat(first.getString("memories[0].id")).isEqualTo(distilled);
        assertThat(first.getBoolean("memories[0].probation")).isTrue();
        assertThat(first.getDouble("memories[0].confidence")).isEqualTo(0.6);
        assertThat(first.getList("memories.findAll { it.probation }")).hasSize(1);

        // Being shown is a usage signal, recorded after the answer: two lift it to 0.714, found on its own.
        await().atMost(WAIT).until(() -> get(distilled).getInt("signals.usage") == 1);
        JsonPath second = search(project, query, 5);
        assertThat(second.getBoolean("memories[0].probation")).isTrue();
        assertThat(second.getDouble("memories[0].confidence")).isEqualTo(0.6667);
        await().atMost(WAIT).until(() -> get(distilled).getInt("signals.usage") == 2);
        JsonPath trusted = search(project, query, 1);
        assertThat(trusted.getString("memories[0].id")).isEqualTo(distilled);
        assertThat(trusted.getBoolean("memories[0].probation")).isFalse();
        assertThat(trusted.getDouble("memories[0].confidence")).isEqualTo(0.7143);
    }

    @Test
    void anUnhelpfulRatingEndsADistilledMemorysProbation() {
        String project = "proj-" + UUID.randomUUID().toString().substring(0, 8);
        record(project, "Bisect to find the regression", "Use git bisect with the failing test to find the commit.");
        debugSession("trace-" + UUID.randomUUID(), project);
        JsonPath listed = await().atMost(WAIT).until(() -> list(project), page -> page.getInt("count") == 2);
        String distilled = listed.getString("memories.find { it.origin == 'distilled' }.id");
        String query = "the profile page crashes for accounts that have no email address";
        assertThat(search(project, query, 5).getList("memories.id", String.class)).contains(distilled);

        given().header("Authorization", TENANT_A.bearer()).contentType(ContentType.JSON)
                .body(Map.of("helpful", false)).post("/v1/memories/{id}/feedback", distilled).then().statusCode(200);

        assertThat(search(project, query, 5).getList("memories.id", String.class)).doesNotContain(distilled)
                .hasSize(1);
    }

    @Test
    void aSessionThatUsedAMemoryAndFailedCountsAsAFailedOutcomeForIt() {
        String project = "proj-" + UUID.randomUUID().toString().substring(0, 8);
        String session = "chat-" + UUID.randomUUID();
        String id = record(project, "Bisect to find the regression",
                "Use git bisect with the failing test to find the commit that broke it.");
        given().header("Authorization", TENANT_A.bearer()).contentType(ContentType.JSON)
                .body(Map.of("query", "which commit broke the build", "session_id", session))
                .post("/v1/projects/{p}/memories/search", project).then().statusCode(200);

        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        TestEvents.session(TENANT_A.tenant(), session,
                SessionStarted.newBuilder().setKind(SessionKind.CHAT).setStartedAt(now).setLabels(Map.of("project", project))
                        .build(),
                SessionCompleted.newBuilder().setOutcome(SessionOutcome.FAILURE).setCompletedAt(now.plusSeconds(60))
                        .build());

        JsonPath memory = await().atMost(WAIT).until(() -> get(id), m -> Integer.valueOf(1).equals(m.get("signals.outcome_failed")));
        assertThat(memory.getDouble("confidence")).isLessThan(0.8);
    }

    @Test
    void anotherReplicasEventsAreProjectedFromTheTopic() {
        String project = "proj-" + UUID.randomUUID().toString().substring(0, 8);
        UUID id = UUID.randomUUID();
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        EventHeader header = TestEvents.header(TENANT_A.tenant(), now);
        MemoryEvent event = MemoryEvents.event(header, project, id, MemoryRecorded.newBuilder()
                .setOrigin(MemoryOrigin.EXPLICIT).setTitle("Recorded elsewhere").setContent("By another replica.")
                .setOutcome(MemoryOutcome.SUCCESS).setEmbedding(MemoryEvents.embedding(embeddings.preferred(),
                        embeddings.embed(embeddings.preferred(), "Recorded elsewhere. By another replica.")
                                .await().atMost(Duration.ofSeconds(30)))).setVia("rest").build());
        TestTopics.write("hindsight.memory.v1", id.toString(), event);

        JsonPath memory = await().atMost(WAIT).until(() -> get(id.toString()), m -> m.getString("id") != null);
        assertThat(memory.getString("title")).isEqualTo("Recorded elsewhere");
        assertThat(memory.getString("project_id")).isEqualTo(project);
    }

    @Test
    void rollingUpOldSignalsLeavesConfidenceAsItWas() {
        String project = "proj-" + UUID.randomUUID().toString().substring(0, 8);
        String id = record(project, "Profile before optimising", "Measure first.");
        given().header("Authorization", TENANT_A.bearer()).contentType(ContentType.JSON)
                .body(Map.of("helpful", true)).post("/v1/memories/{id}/feedback", id).then().statusCode(200);
        given().header("Authorization", TENANT_A.bearer()).contentType(ContentType.JSON)
                .body(Map.of("succeeded", false)).post("/v1/memories/{id}/outcome", id).then().statusCode(200);
        JsonPath before = get(id);

        assertThat(signalRows(id)).as("individual signals before the rollup").containsExactly(2L, 0L);

        // Everything recorded so far counts as "older than the retention" for this rollup.
        rollup.rollUp(Instant.now().plus(1, ChronoUnit.DAYS)).await().atMost(Duration.ofSeconds(30));

        // This memory's own signals were folded: none individual, one aggregate holding both.
        assertThat(signalRows(id)).as("individual signals and aggregate rows after").containsExactly(0L, 1L);
        JsonPath after = get(id);
        assertThat(after.getDouble("confidence")).isEqualTo(before.getDouble("confidence"));
        assertThat(after.getMap("signals")).isEqualTo(before.getMap("signals"));
    }

    /**
     * The event-id ledger is what keeps a signal counted once after the rollup: the rollup removes the signal's own
     * row, so the natural key no longer stops a second copy, and a redelivered event (a consumer that crashed before
     * it committed its offset reads it again) would count twice.
     */
    @Test
    void aSignalRedeliveredAfterItsRowWasRolledUpIsNotCountedAgain() {
        String project = "proj-" + UUID.randomUUID().toString().substring(0, 8);
        String id = record(project, "Pin the base image", "Use a digest, not a tag.");
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        MemoryEvent failed = MemoryEvents.event(TestEvents.header(TENANT_A.tenant(), now), project, UUID.fromString(id),
                MemoryEvents.signal(MemorySignalKind.OUTCOME, false, null, "rest", null));
        TestTopics.write("hindsight.memory.v1", id, failed);
        await().atMost(WAIT).until(() -> get(id), m -> Integer.valueOf(1).equals(m.get("signals.outcome_failed")));

        rollup.rollUp(Instant.now().plus(1, ChronoUnit.DAYS)).await().atMost(Duration.ofSeconds(30));
        assertThat(signalRows(id)).as("individual signals and aggregate rows after the rollup").containsExactly(0L, 1L);

        // The same event again, then a new one behind it on the same partition: once the new one counts, the copy has
        // been read and applied (or not) before it.
        TestTopics.write("hindsight.memory.v1", id, failed);
        MemoryEvent succeeded = MemoryEvents.event(TestEvents.header(TENANT_A.tenant(), now.plusSeconds(1)), project,
                UUID.fromString(id), MemoryEvents.signal(MemorySignalKind.OUTCOME, true, null, "rest", null));
        TestTopics.write("hindsight.memory.v1", id, succeeded);
        JsonPath after = await().atMost(WAIT).until(() -> get(id),
                m -> Integer.valueOf(1).equals(m.get("signals.outcome_succeeded")));
        assertThat(after.getInt("signals.outcome_failed")).as("the redelivered failure, counted once").isEqualTo(1);
    }

    /**
     * The ledger is pruned to the deduplication window, and inside it a redelivered event still counts once: a window
     * ending between two signals' claims drops the older one's ledger row and keeps the newer one's, and the newer
     * one, rolled up (so only the ledger knows it) and delivered again, is not counted again.
     */
    @Test
    void theLedgerIsPrunedToTheWindowAndARedeliveryInsideItCountsOnce() {
        String project = "proj-" + UUID.randomUUID().toString().substring(0, 8);
        String id = record(project, "Cache the dependency layer", "Copy the lockfile first, then install.");
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        MemoryEvent older = MemoryEvents.event(TestEvents.header(TENANT_A.tenant(), now), project, UUID.fromString(id),
                MemoryEvents.signal(MemorySignalKind.OUTCOME, false, null, "rest", null));
        TestTopics.write("hindsight.memory.v1", id, older);
        await().atMost(WAIT).until(() -> get(id), m -> Integer.valueOf(1).equals(m.get("signals.outcome_failed")));
        Instant windowStart = Instant.now();
        MemoryEvent newer = MemoryEvents.event(TestEvents.header(TENANT_A.tenant(), now.plusSeconds(1)), project,
                UUID.fromString(id), MemoryEvents.signal(MemorySignalKind.OUTCOME, true, null, "rest", null));
        TestTopics.write("hindsight.memory.v1", id, newer);
        await().atMost(WAIT).until(() -> get(id), m -> Integer.valueOf(1).equals(m.get("signals.outcome_succeeded")));

        long pruned = ledger.prune(windowStart).await().atMost(Duration.ofSeconds(30));
        assertThat(pruned).as("ledger rows claimed before the window").isPositive();
        assertThat(inLedger(older.getHeader().getEventId())).as("the older signal's ledger row").isFalse();
        assertThat(inLedger(newer.getHeader().getEventId())).as("the newer signal's ledger row").isTrue();

        rollup.rollUp(Instant.now().plus(1, ChronoUnit.DAYS)).await().atMost(Duration.ofSeconds(30));
        TestTopics.write("hindsight.memory.v1", id, newer);
        MemoryEvent marker = MemoryEvents.event(TestEvents.header(TENANT_A.tenant(), now.plusSeconds(2)), project,
                UUID.fromString(id), MemoryEvents.signal(MemorySignalKind.OUTCOME, false, null, "rest", null));
        TestTopics.write("hindsight.memory.v1", id, marker);
        JsonPath after = await().atMost(WAIT).until(() -> get(id),
                m -> Integer.valueOf(2).equals(m.get("signals.outcome_failed")));
        assertThat(after.getInt("signals.outcome_succeeded")).as("the redelivered success, counted once").isEqualTo(1);
    }

    private boolean inLedger(UUID eventId) {
        return pool.preparedQuery("SELECT count(*) FROM processed_event WHERE event_id = $1")
                .execute(io.vertx.mutiny.sqlclient.Tuple.of(eventId)).map(rows -> rows.iterator().next().getLong(0) > 0)
                .await().atMost(Duration.ofSeconds(10));
    }

    /** This memory's individual signal rows and aggregate rows, read from memory-service's database. */
    private List<Long> signalRows(String id) {
        return pool.preparedQuery("""
                        SELECT (SELECT count(*) FROM memory_signal WHERE memory_id = $1),
                               (SELECT count(*) FROM memory_signal_aggregate WHERE memory_id = $1)""")
                .execute(io.vertx.mutiny.sqlclient.Tuple.of(UUID.fromString(id))).map(rows -> {
                    var row = rows.iterator().next();
                    return List.of(row.getLong(0), row.getLong(1));
                }).await().atMost(Duration.ofSeconds(10));
    }

    private static void debugSession(String session, String project) {
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        TestEvents.session(TENANT_A.tenant(), session,
                SessionStarted.newBuilder().setKind(SessionKind.DEBUG).setStartedAt(now)
                        .setLabels(Map.of("project", project))
                        .setDebug(DebugAttributes.newBuilder().setDeveloperId("dev-1").setTaskId("BUG-17")
                                .setTaskDescription("Fix the null pointer when a user has no email address")
                                .setRepoUrl("https://example.com/acme/accounts.git").build()).build(),
                MessageRecorded.newBuilder().setMessageIndex(0).setRole(MessageRole.USER)
                        .setContent("Users without an email crash the profile page").setTimestamp(now).build(),
                activity(now, 1, ThoughtLog.newBuilder().setThoughtText(
                        "Hypothesis: UserProfile.render dereferences email without a null check").build()),
                activity(now, 2, FileEdit.newBuilder().setFilePath("src/main/java/acme/UserProfile.java")
                        .setContentDiff("+ if (email == null) return Optional.empty();").build()),
                activity(now, 3, CommandRun.newBuilder().setCommandText("mvn test -Dtest=UserProfileTest")
                        .setExitCode(0).setStdout("Tests run: 4, Failures: 0").build()),
                SessionCompleted.newBuilder().setOutcome(SessionOutcome.SUCCESS).setCompletedAt(now.plusSeconds(300))
                        .setFinalCodeDiff("+ if (email == null) return Optional.empty();").build());
        Instant later = now.plusSeconds(301);
        TestTopics.write("hindsight.insights.v1", session, insight(session, SessionSummarized.newBuilder()
                .setStatus(InsightStatus.COMPLETED).setSummarizer("extractive.v1").setProducedAt(later)
                .setSummary("Added a null check for missing email addresses in UserProfile; the tests pass.").build()));
        TestTopics.write("hindsight.insights.v1", session, insight(session, TraceJudged.newBuilder()
                .setStatus(InsightStatus.COMPLETED).setOverallScore(88).setJudge("rubric.v1").setJudgedAt(later)
                .setRubric(List.of(RubricScore.newBuilder().setDimension("verification_after_edits").setScore(90)
                        .setRationale("ran the tests after the edit").build())).build()));
    }

    private static ActivityRecorded activity(Instant start, int sequence, Object activity) {
        return ActivityRecorded.newBuilder().setActivityId("a-" + UUID.randomUUID()).setSequence(sequence)
                .setTimestamp(start.plusSeconds(sequence * 10L)).setActivity(activity).build();
    }

    private static InsightEvent insight(String session, Object payload) {
        return InsightEvent.newBuilder().setHeader(TestEvents.header(TENANT_A.tenant(), null)).setSessionId(session)
                .setPayload(payload).build();
    }

    /** Records an explicit memory through the REST API; answers its id. */
    private static String record(String project, String title, String content) {
        return given().header("Authorization", TENANT_A.bearer()).contentType(ContentType.JSON)
                .body(Map.of("title", title, "content", content, "outcome", "success"))
                .post("/v1/projects/{p}/memories", project).then().statusCode(201).extract().path("id");
    }

    private static JsonPath search(String project, String query, int limit) {
        return given().header("Authorization", TENANT_A.bearer()).contentType(ContentType.JSON)
                .body(Map.of("query", query, "limit", limit)).post("/v1/projects/{p}/memories/search", project)
                .then().statusCode(200).extract().jsonPath();
    }

    private static JsonPath list(String project) {
        var response = given().header("Authorization", TENANT_A.bearer()).get("/v1/projects/{p}/memories", project);
        return response.statusCode() == 200 ? response.jsonPath() : JsonPath.from("{\"count\": 0, \"memories\": []}");
    }

    private static JsonPath get(String id) {
        var response = given().header("Authorization", TENANT_A.bearer()).get("/v1/memories/{id}", id);
        return response.statusCode() == 200 ? response.jsonPath() : JsonPath.from("{}");
    }
}
