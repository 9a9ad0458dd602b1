package dev.hindsight.evaluation.erasure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hindsight.evaluation.insight.InsightEvents;
import dev.hindsight.evaluation.insight.InsightJob;
import dev.hindsight.evaluation.outbox.Outbox;
import dev.hindsight.events.HindsightTopic;
import dev.hindsight.events.evaluations.DecisionCompared;
import dev.hindsight.events.evaluations.EvaluationEvent;
import dev.hindsight.platform.erasure.ErasureApplier;
import dev.hindsight.platform.erasure.ErasureLog;
import dev.hindsight.platform.kafka.EventHeaders;
import dev.hindsight.platform.tenant.TenantId;
import dev.hindsight.testing.HindsightTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Transaction;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * Erasure in evaluation-service's own database (ADR 0028), the applier driven directly against the real PostgreSQL:
 * what it deletes of sessions and their messages, or of a whole tenant, from every table it keeps, outbox included;
 * what it leaves (other sessions, another tenant's rows under the same ids, the ledger); and that it applies an
 * erasure once. The outbox relay publishes and deletes every committed outbox row within moments, so the cases that
 * count outbox rows run in a transaction of the test's that is never committed, which the relay cannot see.
 */
@QuarkusTest
@QuarkusTestResource(HindsightTestResource.class)
class EvaluationErasuresTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final Clock CLOCK = Clock.systemUTC();
    private static final List<String> BY_SESSION = List.of("session_state", "session_message", "session_action",
            "session_step", "insight_job");
    private static final List<String> BY_MESSAGE = List.of("decision_set_state", "behavior_signal");

    @Inject
    ErasureApplier applier;

    @Inject
    EvaluationErasures erasures;

    @Inject
    Outbox outbox;

    @Inject
    Pool pool;

    @Test
    void erasingSessionsDeletesTheirRowsAndTheirMessagesRowsFromEveryTableAndNothingElse() {
        inTransaction(tx -> {
            TenantId a = tenant("a");
            TenantId b = tenant("b");
            session(tx, a, "s-gone", "m-gone");
            session(tx, a, "s-kept", "m-kept");
            // The same ids in another tenant: ids are unique within a tenant only.
            session(tx, b, "s-gone", "m-gone");
            // A decision set of the erased session on a message the erasure does not name (the read model that
            // resolved it had not seen the set yet): it goes with its session, and its signals and evaluation with it.
            message(tx, a, "s-gone", "m-late");
            Map<String, Long> kept = rows(tx, a, "s-kept", "m-kept");
            Map<String, Long> other = rows(tx, b, "s-gone", "m-gone");
            assertThat(kept).allSatisfy((table, n) -> assertThat(n).as(table).isPositive());

            ErasureLog.Erasure erasure = erasure(a, "SESSIONS", List.of("s-gone"), List.of("m-gone"));
            Optional<Map<String, Long>> erased = erasures.apply(tx, erasure).await().atMost(WAIT);

            Map<String, Long> expected = new LinkedHashMap<>();
            expected.put("session_state", 1L);
            expected.put("session_message", 2L);
            expected.put("session_action", 1L);
            expected.put("session_step", 1L);
            expected.put("insight_job", 1L);
            expected.put("decision_set_state", 2L);
            expected.put("behavior_signal", 4L);
            expected.put("outbox", 3L); // the session's summary, an evaluation of each of its two messages
            assertThat(erased).contains(expected);
            assertThat(rows(tx, a, "s-gone", "m-gone")).allSatisfy((table, n) -> assertThat(n).as(table).isZero());
            assertThat(rows(tx, a, "s-gone", "m-late")).allSatisfy((table, n) -> assertThat(n).as(table).isZero());
            assertThat(rows(tx, a, "s-kept", "m-kept")).isEqualTo(kept);
            assertThat(rows(tx, b, "s-gone", "m-gone")).isEqualTo(other);
            assertThat(recorded(tx, erasure)).isEqualTo(expected);

            // Applied again (by another replica, or at the next start): nothing is deleted, not even rows of the
            // session written since (here by hand: the consumers refuse them).
            session(tx, a, "s-gone", "m-gone");
            Map<String, Long> since = rows(tx, a, "s-gone", "m-gone");
            assertThat(erasures.apply(tx, erasure).await().atMost(WAIT)).isEmpty();
            assertThat(rows(tx, a, "s-gone", "m-gone")).isEqualTo(since);
            assertThat(recorded(tx, erasure)).isEqualTo(expected);
        });
    }

    @Test
    void erasingATenantDeletesEveryRowOfItsFromEveryTableAndLeavesTheLedgerAndTheOtherTenants() {
        inTransaction(tx -> {
            TenantId c = tenant("c");
            TenantId d = tenant("d");
            session(tx, c, "s-1", "m-1");
            session(tx, c, "s-2", "m-2");
            session(tx, d, "s-1", "m-1");
            UUID processed = UUID.randomUUID();
            execute(tx, """
                    INSERT INTO processed_event (consumer, event_id, tenant_id) VALUES ('evaluation.reasoning', $1, $2)""",
                    Tuple.of(processed, c.value()));
            Map<String, Long> other = tenantRows(tx, d);

            ErasureLog.Erasure erasure = erasure(c, "TENANT", List.of(), List.of());
            Optional<Map<String, Long>> erased = erasures.apply(tx, erasure).await().atMost(WAIT);

            assertThat(erased).hasValueSatisfying(counts -> assertThat(counts).containsExactlyInAnyOrderEntriesOf(
                    Map.of("session_state", 2L, "session_message", 4L, "session_action", 2L, "session_step", 2L,
                            "insight_job", 2L, "decision_set_state", 2L, "behavior_signal", 4L, "outbox", 4L)));
            assertThat(tenantRows(tx, c)).allSatisfy((table, n) -> assertThat(n).as(table).isZero());
            assertThat(tenantRows(tx, d)).isEqualTo(other);
            // The ledger holds event ids, no content, and keeps a replay from applying an event twice.
            assertThat(count(tx, "SELECT count(*) FROM processed_event WHERE tenant_id = $1 AND event_id = $2",
                    Tuple.of(c.value(), processed))).isOne();
            assertThat(recorded(tx, erasure)).isEqualTo(erased.get());
            assertThat(erasures.apply(tx, erasure).await().atMost(WAIT)).isEmpty();
        });
    }

    @Test
    void anUnpublishedEventThatDoesNotNameItsTenantIsErasedByTheTenantItsEnvelopeNames() {
        inTransaction(tx -> {
            TenantId a = tenant("a");
            TenantId b = tenant("b");
            session(tx, a, "s-gone", "m-gone");
            session(tx, b, "s-gone", "m-gone");
            // As the previous version wrote them (V2__erasures.sql), during a rolling update.
            execute(tx, "UPDATE outbox SET tenant_id = NULL WHERE tenant_id = ANY($1)",
                    Tuple.of((Object) new String[] {a.value(), b.value()}));

            Optional<Map<String, Long>> erased = erasures.apply(tx, erasure(a, "SESSIONS", List.of("s-gone"),
                    List.of("m-gone"))).await().atMost(WAIT);

            assertThat(erased).hasValueSatisfying(counts -> assertThat(counts).containsEntry("outbox", 2L));
            assertThat(unnamed(tx, a)).isZero();
            assertThat(unnamed(tx, b)).isEqualTo(2);
        });
    }

    @Test
    void theServicesApplierClaimsAnErasureInItsOwnTransactionAndAppliesItOnce() {
        TenantId e = tenant("e");
        state(pool, e, "s-gone", "m-gone");
        state(pool, e, "s-kept", "m-kept");
        Map<String, Long> kept = rows(pool, e, "s-kept", "m-kept");
        ErasureLog.Erasure erasure = erasure(e, "SUBJECT", List.of("s-gone"), List.of("m-gone"));

        Optional<Map<String, Long>> erased = applier.apply(erasure).await().atMost(WAIT);

        assertThat(erased).hasValueSatisfying(counts -> assertThat(counts).containsExactlyInAnyOrderEntriesOf(
                Map.of("session_state", 1L, "session_message", 2L, "session_action", 1L, "session_step", 1L,
                        "insight_job", 1L, "decision_set_state", 1L, "behavior_signal", 2L, "outbox", 0L)));
        assertThat(rows(pool, e, "s-gone", "m-gone")).allSatisfy((table, n) -> assertThat(n).as(table).isZero());
        assertThat(rows(pool, e, "s-kept", "m-kept")).isEqualTo(kept);
        assertThat(recorded(pool, erasure)).isEqualTo(erased.get());

        state(pool, e, "s-gone", "m-gone");
        Map<String, Long> since = rows(pool, e, "s-gone", "m-gone");
        assertThat(applier.apply(erasure).await().atMost(WAIT)).isEmpty();
        assertThat(rows(pool, e, "s-gone", "m-gone")).isEqualTo(since);
    }

    /** A session of {@code tenant} with rows in every table, its summary and message {@code message}'s evaluation. */
    private void session(SqlClient tx, TenantId tenant, String session, String message) {
        state(tx, tenant, session, message);
        InsightJob job = new InsightJob(tenant, session, InsightJob.Kind.SESSION_SUMMARY, -1, 1);
        outbox.add(tx, List.of(InsightEvents.sessionSummarized(job, "a summary", null, "extractive.v1", CLOCK)))
                .await().atMost(WAIT);
        evaluation(tx, tenant, session, message);
    }

    /** Another decision set of {@code session}, on {@code message}, with its signals and an evaluation. */
    private void message(SqlClient tx, TenantId tenant, String session, String message) {
        decisionSet(tx, tenant, session, message);
        evaluation(tx, tenant, session, message);
    }

    /** What evaluation-service keeps of a session with two messages, one of them {@code message}: no events. */
    private static void state(SqlClient client, TenantId tenant, String session, String message) {
        execute(client, """
                INSERT INTO session_state (tenant_id, session_id, kind, title) VALUES ($1, $2, 'chat', 'a chat')""",
                Tuple.of(tenant.value(), session));
        for (int index = 0; index < 2; index++) {
            execute(client, """
                    INSERT INTO session_message (tenant_id, session_id, message_index, role, content, occurred_at)
                    VALUES ($1, $2, $3, $4, 'what people wrote', now())""",
                    Tuple.of(tenant.value(), session, index, index == 0 ? "user" : "assistant"));
        }
        execute(client, """
                INSERT INTO session_action (tenant_id, session_id, action_id, description, occurred_at)
                VALUES ($1, $2, '1', 'buy 10 NVDA', now())""", Tuple.of(tenant.value(), session));
        execute(client, """
                INSERT INTO session_step (tenant_id, session_id, step_id, sequence, occurred_at, source_offset, kind,
                                          text)
                VALUES ($1, $2, 'step-1', 0, now(), 0, 'THOUGHT', 'a thought')""", Tuple.of(tenant.value(), session));
        // Finished: no worker claims it, and the pruner keeps it for days.
        execute(client, """
                INSERT INTO insight_job (tenant_id, session_id, kind, state, finished_at)
                VALUES ($1, $2, 'session_summary', 'done', now())""", Tuple.of(tenant.value(), session));
        decisionSet(client, tenant, session, message);
    }

    /** A decision set on {@code message}, not due before its 30-minute window closes, and two signals on it. */
    private static void decisionSet(SqlClient client, TenantId tenant, String session, String message) {
        execute(client, """
                INSERT INTO decision_set_state (tenant_id, decision_set_id, message_id, session_id, decision_set,
                                                decided_at, signal_count)
                VALUES ($1, $2, $3, $4, '{}'::jsonb, now(), 2)""",
                Tuple.of(tenant.value(), "ds-" + UUID.randomUUID(), message, session));
        for (int i = 0; i < 2; i++) {
            execute(client, """
                    INSERT INTO behavior_signal (tenant_id, event_id, message_id, signal_type, occurred_at, user_action)
                    VALUES ($1, $2, $3, 'user_followup_override', now(), 'what people typed')""",
                    Tuple.of(tenant.value(), UUID.randomUUID(), message));
        }
    }

    /** An evaluation of {@code message} not published yet. */
    private void evaluation(SqlClient tx, TenantId tenant, String session, String message) {
        UUID id = UUID.randomUUID();
        Instant now = CLOCK.instant();
        EvaluationEvent envelope = EvaluationEvent.newBuilder()
                .setHeader(EventHeaders.create(id, tenant, InsightEvents.PRINCIPAL, null, now, CLOCK))
                .setMessageId(message)
                .setPayload(DecisionCompared.newBuilder().setComparisonId(UUID.randomUUID().toString())
                        .setDecisionSetId("ds").setMessageId(message).setSessionId(session)
                        .setActiveVersion("v1").setShadowVersion("v2").setDecisionDiverged(false)
                        .setActionDiverged(true).setActiveAction("DIRECT_ANSWER").setShadowAction("REQUIRE_COMM")
                        .setDivergenceSeverity("medium").setComparisonType("action_divergence").setTimestamp(now)
                        .build())
                .build();
        outbox.add(tx, List.of(new Outbox.Event(HindsightTopic.EVALUATIONS, message, id, envelope)))
                .await().atMost(WAIT);
    }

    /** The rows of {@code session} and {@code message} of {@code tenant}, by table. */
    private static Map<String, Long> rows(SqlClient client, TenantId tenant, String session, String message) {
        Map<String, Long> rows = new LinkedHashMap<>();
        for (String table : BY_SESSION) {
            rows.put(table, count(client, "SELECT count(*) FROM " + table + " WHERE tenant_id = $1 AND session_id = $2",
                    Tuple.of(tenant.value(), session)));
        }
        for (String table : BY_MESSAGE) {
            rows.put(table, count(client, "SELECT count(*) FROM " + table + " WHERE tenant_id = $1 AND message_id = $2",
                    Tuple.of(tenant.value(), message)));
        }
        rows.put("outbox", count(client, "SELECT count(*) FROM outbox WHERE tenant_id = $1 AND record_key = ANY($2)",
                Tuple.of(tenant.value(), new String[] {session, message})));
        return rows;
    }

    /** Every row of {@code tenant}, by table. */
    private static Map<String, Long> tenantRows(SqlClient client, TenantId tenant) {
        Map<String, Long> rows = new LinkedHashMap<>();
        for (String table : List.of("session_state", "session_message", "session_action", "session_step",
                "insight_job", "decision_set_state", "behavior_signal", "outbox")) {
            rows.put(table, count(client, "SELECT count(*) FROM " + table + " WHERE tenant_id = $1",
                    Tuple.of(tenant.value())));
        }
        return rows;
    }

    /** The outbox rows without a tenant whose envelope names {@code tenant}. */
    private static long unnamed(SqlClient client, TenantId tenant) {
        return count(client, "SELECT count(*) FROM outbox WHERE tenant_id IS NULL AND position($1 IN envelope) > 0",
                Tuple.of(io.vertx.core.buffer.Buffer.buffer(tenant.value())));
    }

    /** The counts recorded for {@code erasure} in {@code erasure_applied}. */
    private static Map<String, Long> recorded(SqlClient client, ErasureLog.Erasure erasure) {
        Row row = client.preparedQuery("SELECT erased FROM erasure_applied WHERE erasure_id = $1 AND tenant_id = $2")
                .execute(Tuple.of(erasure.id(), erasure.tenant().value())).await().atMost(WAIT).iterator().next();
        Map<String, Long> counts = new LinkedHashMap<>();
        ((JsonObject) row.getValue("erased")).forEach(e -> counts.put(e.getKey(), ((Number) e.getValue()).longValue()));
        return counts;
    }

    private static ErasureLog.Erasure erasure(TenantId tenant, String selector, List<String> sessions,
            List<String> messages) {
        return new ErasureLog.Erasure("erasure-" + UUID.randomUUID(), tenant, "admin@" + tenant.value(),
                Instant.now(), selector, null, sessions, messages, List.of(), List.of(), new ConcurrentHashMap<>());
    }

    private static TenantId tenant(String name) {
        return TenantId.of("erasure-" + name + "-" + UUID.randomUUID());
    }

    /** Runs {@code test} on a connection in a transaction that is rolled back afterwards. */
    private void inTransaction(Consumer<SqlConnection> test) {
        SqlConnection connection = pool.getConnection().await().atMost(WAIT);
        try {
            Transaction tx = connection.begin().await().atMost(WAIT);
            try {
                test.accept(connection);
            } finally {
                tx.rollback().await().atMost(WAIT);
            }
        } finally {
            connection.close().await().atMost(WAIT);
        }
    }

    private static void execute(SqlClient client, String sql, Tuple args) {
        client.preparedQuery(sql).execute(args).await().atMost(WAIT);
    }

    private static long count(SqlClient client, String sql, Tuple args) {
        return client.preparedQuery(sql).execute(args).await().atMost(WAIT).iterator().next().getLong(0);
    }
}
