package dev.hindsight.evaluation.audit;

import dev.hindsight.evaluation.shadow.DecisionSet;
import dev.hindsight.evaluation.shadow.Signal;
import dev.hindsight.events.EventHeader;
import dev.hindsight.events.decisions.DecisionEvent;
import dev.hindsight.events.signals.SignalEvent;
import dev.hindsight.platform.consumer.DeadLetters;
import dev.hindsight.platform.erasure.ErasureLog;
import dev.hindsight.platform.consumer.Ledger;
import dev.hindsight.platform.consumer.Projection;
import dev.hindsight.platform.consumer.TransactionalBatches.Consumed;
import dev.hindsight.platform.kafka.Decoded;
import dev.hindsight.platform.tenant.TenantId;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Singleton;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.avro.specific.SpecificRecordBase;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * Joins decision sets with the behaviour signals on their message (design.md § Behaviour signals) in
 * evaluation-service's database. One channel reads both co-partitioned topics (range assignment keeps partition n of
 * both on one instance), so a decision set and its signals are written by one consumer, in one transaction per batch,
 * in the order they were read: the signal count kept on a decision set is exact, whichever of the two arrives first.
 * {@link ShadowEvaluator} decides from that state when to score.
 */
@Singleton
class AuditProjection extends Projection<SpecificRecordBase> {

    static final String DECISIONS_CONSUMER = "evaluation.decisions";
    static final String SIGNALS_CONSUMER = "evaluation.signals";

    private static final String TERMINAL = "('smooth_completion', 'explicit_feedback', 'abandoned_response')";

    // The set counts the signals that arrived before it.
    private static final String INSERT_SET = """
            INSERT INTO decision_set_state (tenant_id, decision_set_id, message_id, session_id, decision_set,
                                            decided_at, signal_count, has_terminal)
            SELECT $1::text, $2::text, $3::text, $4::text, $5::jsonb, $6::timestamptz, count(*), COALESCE(bool_or(signal_type IN %s), false)
            FROM behavior_signal WHERE tenant_id = $1 AND message_id = $3
            ON CONFLICT DO NOTHING""".formatted(TERMINAL);
    // A signal counts on every set of its message that arrived before it.
    private static final String INSERT_SIGNAL = """
            WITH inserted AS (
                INSERT INTO behavior_signal (tenant_id, event_id, message_id, signal_type, occurred_at,
                                             requested_action, user_action, thumbs_up, violation_type)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
                ON CONFLICT DO NOTHING
                RETURNING tenant_id, message_id, signal_type)
            UPDATE decision_set_state d SET signal_count = d.signal_count + 1,
                   has_terminal = d.has_terminal OR inserted.signal_type IN %s
            FROM inserted WHERE d.tenant_id = inserted.tenant_id AND d.message_id = inserted.message_id"""
            .formatted(TERMINAL);

    public AuditProjection(Pool pool, DeadLetters deadLetters, ErasureLog erasures, ShadowEvaluator evaluator) {
        super(pool, deadLetters, erasures, "audit", SpecificRecordBase.class);
        wakeAfterCommit(evaluator::wake);
    }

    @Incoming("audit")
    public Uni<Void> consume(ConsumerRecords<String, Decoded> records) {
        return process(records);
    }

    @Override
    public Uni<Void> apply(SqlClient tx, List<Consumed<SpecificRecordBase>> events) {
        List<Consumed<SpecificRecordBase>> decisions = new ArrayList<>();
        List<Consumed<SpecificRecordBase>> signals = new ArrayList<>();
        for (Consumed<SpecificRecordBase> event : events) {
            if (event.envelope() instanceof DecisionEvent) {
                decisions.add(event);
            } else if (event.envelope() instanceof SignalEvent) {
                signals.add(event);
            } else {
                // Fails the batch on its data: replayed one by one, this event alone is dead-lettered.
                throw new IllegalArgumentException("not a decision set or a signal: "
                        + event.envelope().getSchema().getFullName());
            }
        }
        return Ledger.claim(tx, "processed_event", DECISIONS_CONSUMER, decisions, AuditProjection::header)
                .chain(freshDecisions -> Ledger.claim(tx, "processed_event", SIGNALS_CONSUMER, signals,
                                AuditProjection::header)
                        .chain(freshSignals -> write(tx, events, freshDecisions, freshSignals)));
    }

    /** In read order, so a set and a signal of one message in one batch are counted exactly once either way. */
    private Uni<Void> write(SqlClient tx, List<Consumed<SpecificRecordBase>> all,
            List<Consumed<SpecificRecordBase>> freshDecisions, List<Consumed<SpecificRecordBase>> freshSignals) {
        java.util.Set<Consumed<SpecificRecordBase>> fresh = java.util.Collections.newSetFromMap(
                new java.util.IdentityHashMap<>());
        fresh.addAll(freshDecisions);
        fresh.addAll(freshSignals);
        Uni<Void> chain = Uni.createFrom().voidItem();
        // Runs of the same kind go as one pipelined batch; the order between kinds is kept.
        List<Tuple> run = new ArrayList<>();
        String runSql = null;
        for (Consumed<SpecificRecordBase> event : all) {
            if (!fresh.contains(event)) {
                continue;
            }
            String sql;
            Tuple row;
            if (event.envelope() instanceof DecisionEvent decision) {
                DecisionSet set = ShadowMapping.decisionSet(decision);
                sql = INSERT_SET;
                row = Tuple.of(set.tenant().value(), set.decisionSetId(), set.messageId(), set.sessionId(),
                        ShadowMapping.toJson(set), set.decidedAt().atOffset(ZoneOffset.UTC));
            } else {
                SignalEvent signalEvent = (SignalEvent) event.envelope();
                TenantId tenant = TenantId.of(signalEvent.getHeader().getTenantId());
                Signal signal = ShadowMapping.signal(signalEvent);
                sql = INSERT_SIGNAL;
                row = Tuple.from(Arrays.asList(tenant.value(),
                        signalEvent.getHeader().getEventId(), signalEvent.getMessageId(), signal.type().wireName(),
                        signal.occurredAt().atOffset(ZoneOffset.UTC), signal.requestedAction(), signal.userAction(),
                        signal.thumbsUp(), signal.violationType()));
            }
            if (runSql != null && !runSql.equals(sql)) {
                chain = flush(chain, tx, runSql, run);
                run = new ArrayList<>();
            }
            runSql = sql;
            run.add(row);
        }
        return runSql == null ? chain : flush(chain, tx, runSql, run);
    }

    private static Uni<Void> flush(Uni<Void> chain, SqlClient tx, String sql, List<Tuple> rows) {
        return chain.chain(() -> tx.preparedQuery(sql).executeBatch(rows).replaceWithVoid());
    }

    private static EventHeader header(Consumed<SpecificRecordBase> event) {
        return event.envelope() instanceof DecisionEvent d ? d.getHeader() : ((SignalEvent) event.envelope()).getHeader();
    }
}
