package dev.hindsight.query.projection;

import dev.hindsight.events.evaluations.DecisionCompared;
import dev.hindsight.events.evaluations.EvaluationEvent;
import dev.hindsight.events.evaluations.ShadowEvaluationCompleted;
import dev.hindsight.events.insights.InsightEvent;
import dev.hindsight.events.insights.InsightStatus;
import dev.hindsight.events.insights.MessageSummarized;
import dev.hindsight.events.insights.RubricScore;
import dev.hindsight.events.insights.SessionSummarized;
import dev.hindsight.events.insights.TraceJudged;
import dev.hindsight.platform.kafka.Decoded;
import dev.hindsight.query.change.Change;
import dev.hindsight.query.readmodel.ReadModel;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Singleton;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * evaluation-service's judgements in the read models: summaries and QA results ({@code hindsight.insights.v1}),
 * shadow evaluations and decision comparisons ({@code hindsight.evaluations.v1}). They are events, so a rebuild
 * shows the same judgements without asking a model again.
 */
public final class JudgementProjections {

    private JudgementProjections() {
    }

    @Singleton
    public static class Insights extends ReadModelProjection<InsightEvent> {

        private static final String MESSAGE_SUMMARY = """
                INSERT INTO {rm}.message_summary (tenant_id, session_id, message_index, status, summary, failure_reason,
                                                  summarizer, produced_at, event_id)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
                ON CONFLICT (tenant_id, session_id, message_index) DO UPDATE SET
                    status = EXCLUDED.status, summary = EXCLUDED.summary, failure_reason = EXCLUDED.failure_reason,
                    summarizer = EXCLUDED.summarizer, produced_at = EXCLUDED.produced_at, event_id = EXCLUDED.event_id
                WHERE {rm}.message_summary.produced_at <= EXCLUDED.produced_at""";
        // The session row may not be projected yet (another topic): create it with what is known.
        private static final String SESSION_SUMMARY = """
                INSERT INTO {rm}.session (tenant_id, session_id, session_summary, summary_status, last_event_at, listed_at)
                VALUES ($1, $2, $3, $4, $5, $5)
                ON CONFLICT (tenant_id, session_id) DO UPDATE SET
                    session_summary = EXCLUDED.session_summary, summary_status = EXCLUDED.summary_status""";
        private static final String TRACE_JUDGED = """
                INSERT INTO {rm}.session (tenant_id, session_id, qa_status, qa_score, qa_rubric, qa_reason, qa_judged_at,
                                          qa_judge, last_event_at, listed_at)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $7, $7)
                ON CONFLICT (tenant_id, session_id) DO UPDATE SET
                    qa_status = EXCLUDED.qa_status, qa_score = EXCLUDED.qa_score, qa_rubric = EXCLUDED.qa_rubric,
                    qa_reason = EXCLUDED.qa_reason, qa_judged_at = EXCLUDED.qa_judged_at, qa_judge = EXCLUDED.qa_judge""";

        public Insights(Writes writes) {
            super(writes, "insights", "query.insights", InsightEvent.class, InsightEvent::getHeader);
        }

        @Incoming("insights")
        public Uni<Void> consume(ConsumerRecords<String, Decoded> records) {
            return live(records);
        }

        @Override
        protected List<Change> changes(List<InsightEvent> envelopes) {
            // A message summary changes what its session shows, but is not announced on the live stream.
            return envelopes.stream()
                    .map(e -> new Change(e.getHeader().getTenantId(),
                            e.getPayload() instanceof MessageSummarized ? Change.MESSAGE_SUMMARIZED
                                    : e.getPayload() instanceof TraceJudged ? "trace_judged" : "session_summarized",
                            e.getSessionId(), e.getHeader().getRecordedAt()))
                    .toList();
        }

        @Override
        protected Uni<Void> write(SqlClient tx, ReadModel model, List<Projected<InsightEvent>> events) {
            List<Tuple> messages = new ArrayList<>();
            List<Tuple> sessions = new ArrayList<>();
            List<Tuple> judged = new ArrayList<>();
            for (Projected<InsightEvent> projected : events) {
                InsightEvent event = projected.envelope();
                String tenant = event.getHeader().getTenantId();
                Object payload = event.getPayload();
                if (payload instanceof MessageSummarized m) {
                    messages.add(Tuple.from(Arrays.asList(tenant, event.getSessionId(), m.getMessageIndex(),
                            status(m.getStatus()), m.getSummary(), m.getFailureReason(), m.getSummarizer(),
                            Json.utc(m.getProducedAt()), event.getHeader().getEventId())));
                } else if (payload instanceof SessionSummarized s) {
                    sessions.add(Tuple.from(Arrays.asList(tenant, event.getSessionId(), s.getSummary(),
                            status(s.getStatus()), Json.utc(s.getProducedAt()))));
                } else if (payload instanceof TraceJudged t) {
                    JsonObject rubric = null;
                    if (t.getStatus() == InsightStatus.COMPLETED) {
                        rubric = new JsonObject();
                        for (RubricScore score : t.getRubric()) {
                            rubric.put(score.getDimension(), Json.withoutNulls(new JsonObject()
                                    .put("score", score.getScore())
                                    .put("evidence_event_ids", new JsonArray(new ArrayList<>(score.getEvidenceEventIds())))
                                    .put("rationale", score.getRationale())));
                        }
                    }
                    judged.add(Tuple.from(Arrays.asList(tenant, event.getSessionId(), status(t.getStatus()),
                            t.getOverallScore() == null ? null : BigDecimal.valueOf(t.getOverallScore()), rubric,
                            t.getFailureReason(), Json.utc(t.getJudgedAt()), t.getJudge())));
                } else {
                    throw new IllegalArgumentException("unknown insight " + payload.getClass().getName());
                }
            }
            return batch(tx, model.sql(MESSAGE_SUMMARY), messages)
                    .chain(() -> batch(tx, model.sql(SESSION_SUMMARY), sessions))
                    .chain(() -> batch(tx, model.sql(TRACE_JUDGED), judged));
        }

        private static String status(InsightStatus status) {
            return status.name().toLowerCase(Locale.ROOT);
        }
    }

    @Singleton
    public static class Evaluations extends ReadModelProjection<EvaluationEvent> {

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

        public Evaluations(Writes writes) {
            super(writes, "evaluations", "query.evaluations", EvaluationEvent.class, EvaluationEvent::getHeader);
        }

        @Incoming("evaluations")
        public Uni<Void> consume(ConsumerRecords<String, Decoded> records) {
            return live(records);
        }

        @Override
        protected List<Change> changes(List<EvaluationEvent> envelopes) {
            return envelopes.stream().filter(e -> e.getPayload() instanceof ShadowEvaluationCompleted)
                    .map(e -> new Change(e.getHeader().getTenantId(), "evaluation",
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
                String tenant = event.getHeader().getTenantId();
                Object payload = event.getPayload();
                if (payload instanceof ShadowEvaluationCompleted e) {
                    JsonObject scores = new JsonObject();
                    e.getShadowScores().forEach((version, score) -> scores.put(version.toString(), score));
                    evaluations.add(Tuple.from(Arrays.asList(tenant, e.getEvaluationId(), e.getDecisionSetId(),
                            e.getMessageId(), e.getSessionId(), e.getActiveVersion(), e.getActiveScore(), scores,
                            new JsonArray(e.getSignalsUsed().stream().map(Object::toString).toList()),
                            e.getEvaluationTimeMs(), e.getEvaluationMethod(), e.getRevision(), e.getTrigger(),
                            e.getLevel(), Json.utc(e.getTimestamp()), event.getHeader().getEventId())));
                } else if (payload instanceof DecisionCompared c) {
                    comparisons.add(Tuple.from(Arrays.asList(tenant, c.getComparisonId(), c.getDecisionSetId(),
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
    }

    private static Uni<Void> batch(SqlClient tx, String sql, List<Tuple> rows) {
        return rows.isEmpty() ? Uni.createFrom().voidItem() : tx.preparedQuery(sql).executeBatch(rows).replaceWithVoid();
    }
}
