package dev.hindsight.evaluation.audit;

import dev.hindsight.evaluation.insight.InsightEvents;
import dev.hindsight.evaluation.outbox.Outbox;
import dev.hindsight.evaluation.shadow.DecisionComparison;
import dev.hindsight.evaluation.shadow.DecisionSet;
import dev.hindsight.evaluation.shadow.ShadowEvaluation;
import dev.hindsight.events.HindsightTopic;
import dev.hindsight.events.evaluations.DecisionCompared;
import dev.hindsight.events.evaluations.EvaluationEvent;
import dev.hindsight.events.evaluations.ShadowEvaluationCompleted;
import dev.hindsight.platform.kafka.EventHeaders;
import java.time.Clock;
import java.time.Instant;
import java.util.UUID;

/**
 * Builds the {@code hindsight.evaluations.v1} events, keyed by message id: {@code SHADOW_EVALUATION_COMPLETED}
 * (design.md § Evaluation window) and {@code DECISION_COMPARISON} (design.md § Decision comparisons). Their event ids
 * are the evaluation and comparison ids, derived from the decision set (and revision or shadow version), so a replayed
 * or re-published evaluation is the same event.
 */
final class EvaluationEvents {

    private EvaluationEvents() {
    }

    public static Outbox.Event evaluated(DecisionSet set, ShadowEvaluation evaluation, double evaluationTimeMs,
            Clock clock) {
        UUID id = UUID.fromString(evaluation.evaluationId());
        ShadowEvaluationCompleted payload = ShadowEvaluationCompleted.newBuilder()
                .setEvaluationId(evaluation.evaluationId())
                .setDecisionSetId(set.decisionSetId())
                .setMessageId(set.messageId())
                .setSessionId(set.sessionId())
                .setActiveVersion(set.activeVersion())
                .setActiveScore(evaluation.activeScore())
                .setShadowScores(new java.util.LinkedHashMap<>(evaluation.shadowScores()))
                .setSignalsUsed(evaluation.signalsUsed())
                .setEvaluationTimeMs(Math.round(evaluationTimeMs * 1000) / 1000.0)
                .setEvaluationMethod(evaluation.evaluationMethod())
                .setRevision(evaluation.revision())
                .setTrigger(evaluation.trigger().wireName())
                .setTimestamp(evaluation.evaluatedAt())
                .build();
        return event(set, id, payload, evaluation.evaluatedAt(), clock);
    }

    public static Outbox.Event compared(DecisionSet set, DecisionComparison c, String similarityModel, Instant at,
            Clock clock) {
        UUID id = UUID.fromString(c.comparisonId());
        DecisionCompared payload = DecisionCompared.newBuilder()
                .setComparisonId(c.comparisonId())
                .setDecisionSetId(c.decisionSetId())
                .setMessageId(c.messageId())
                .setSessionId(c.sessionId())
                .setActiveVersion(c.activeVersion())
                .setShadowVersion(c.shadowVersion())
                .setDecisionDiverged(c.decisionDiverged())
                .setActionDiverged(c.actionDiverged())
                .setActiveAction(c.activeAction())
                .setShadowAction(c.shadowAction())
                .setConfidenceDelta(c.confidenceDelta())
                .setReasoningSimilarity(c.reasoningSimilarity())
                .setSimilarityModel(c.reasoningSimilarity() == null ? null : similarityModel)
                .setDivergenceSeverity(c.divergenceSeverity().wireName())
                .setComparisonType(c.comparisonType())
                .setTimestamp(at)
                .build();
        return event(set, id, payload, at, clock);
    }

    private static Outbox.Event event(DecisionSet set, UUID id, Object payload, Instant occurredAt, Clock clock) {
        EvaluationEvent envelope = EvaluationEvent.newBuilder()
                .setHeader(EventHeaders.create(id, set.tenant(), InsightEvents.PRINCIPAL, null, occurredAt, clock))
                .setMessageId(set.messageId())
                .setPayload(payload)
                .build();
        return new Outbox.Event(HindsightTopic.EVALUATIONS, set.messageId(), id, envelope);
    }
}
