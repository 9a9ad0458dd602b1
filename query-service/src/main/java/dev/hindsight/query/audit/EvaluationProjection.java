package dev.hindsight.query.audit;

import dev.hindsight.events.evaluations.DecisionCompared;
import dev.hindsight.events.evaluations.EvaluationEvent;
import dev.hindsight.events.evaluations.ShadowEvaluationCompleted;
import dev.hindsight.platform.kafka.Decoded;
import dev.hindsight.platform.tenant.TenantId;
import dev.hindsight.query.readmodel.Change;
import dev.hindsight.query.readmodel.Json;
import dev.hindsight.query.readmodel.ReadModel;
import dev.hindsight.query.readmodel.ReadModelProjection;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * evaluation-service's shadow evaluations and decision comparisons ({@code hindsight.evaluations.v1}) beside the
 * decision sets they judge. They are events, so a rebuild shows the same scores without computing them again.
 */
@Singleton
class EvaluationProjection extends ReadModelProjection<EvaluationEvent> {

    private static final String EVALUATION = """
            INSERT INTO {rm}.shadow_evaluation (tenant_id, evaluation_id, decision_set_id, message_id, session_id,
                active_version, active_score, shadow_scores, signals_used, evaluation_time_ms, evaluation_method,
                revision, trigger, level, occurred_at, event_id)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)
            ON CONFLICT (tenant_id, evaluation_id) DO NOTHING""";
    private static final String COMPARISON = """
            INSERT INTO {rm}.decision_comparison (tenant_id, comparison_id, decision_set_id, message_id, session_id,
                active_version, shadow_version, decision_diverged, action_diverged, active_action, shadow_action,
                confidence_delta, reasoning_similarity, similarity_model, divergence_severity, comparison_type,
                level, occurred_at, event_id)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)
            ON CONFLICT (tenant_id, comparison_id) DO NOTHING""";

    public EvaluationProjection(Writes writes) {
        super(writes, "evaluations", "query.evaluations", EvaluationEvent.class, EvaluationEvent::getHeader);
    }

    @Incoming("evaluations")
    public Uni<Void> consume(ConsumerRecords<String, Decoded> records) {
        return live(records);
    }

    @Override
    protected List<Change> changes(List<EvaluationEvent> envelopes) {
        return envelopes.stream().filter(e -> e.getPayload() instanceof ShadowEvaluationCompleted)
                .map(e -> new Change(TenantId.of(e.getHeader().getTenantId()), "evaluation",
                        ((ShadowEvaluationCompleted) e.getPayload()).getDecisionSetId(),
                        e.getHeader().getRecordedAt()))
                .toList();
    }

    @Override
    protected Uni<Void> write(SqlClient tx, ReadModel model, List<Projected<EvaluationEvent>> events) {
        List<Tuple> evaluations = new ArrayList<>();
        List<Tuple> comparisons = new ArrayList<>();
        for (Projected<EvaluationEvent> projected : events) {
            EvaluationEvent event = projected.envelope();
            TenantId tenant = TenantId.of(event.getHeader().getTenantId());
            Object payload = event.getPayload();
            if (payload instanceof ShadowEvaluationCompleted e) {
                JsonObject scores = new JsonObject();
                e.getShadowScores().forEach((version, score) -> scores.put(version.toString(), score));
                evaluations.add(Tuple.from(Arrays.asList(tenant.value(), e.getEvaluationId(), e.getDecisionSetId(),
                        e.getMessageId(), e.getSessionId(), e.getActiveVersion(), e.getActiveScore(), scores,
                        new JsonArray(e.getSignalsUsed().stream().map(Object::toString).toList()),
                        e.getEvaluationTimeMs(), e.getEvaluationMethod(), e.getRevision(), e.getTrigger(),
                        e.getLevel(), Json.utc(e.getTimestamp()), event.getHeader().getEventId())));
            } else if (payload instanceof DecisionCompared c) {
                comparisons.add(Tuple.from(Arrays.asList(tenant.value(), c.getComparisonId(), c.getDecisionSetId(),
                        c.getMessageId(), c.getSessionId(), c.getActiveVersion(), c.getShadowVersion(),
                        c.getDecisionDiverged(), c.getActionDiverged(), c.getActiveAction(), c.getShadowAction(),
                        c.getConfidenceDelta(), c.getReasoningSimilarity(), c.getSimilarityModel(),
                        c.getDivergenceSeverity(), c.getComparisonType(), c.getLevel(), Json.utc(c.getTimestamp()),
                        event.getHeader().getEventId())));
            } else {
                throw new IllegalArgumentException("unknown evaluation " + payload.getClass().getName());
            }
        }
        return batch(tx, model.sql(EVALUATION), evaluations)
                .chain(() -> batch(tx, model.sql(COMPARISON), comparisons));
    }

    private static Uni<Void> batch(SqlClient tx, String sql, List<Tuple> rows) {
        return rows.isEmpty() ? Uni.createFrom().voidItem() : tx.preparedQuery(sql).executeBatch(rows).replaceWithVoid();
    }
}
