package dev.hindsight.query.audit;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;

/**
 * What the audit endpoints answer, for the published OpenAPI document: the answers are built as JSON by the queries
 * (the audit events, as PostgreSQL writes them), and these records only describe them.
 */
final class AuditShapes {

    private AuditShapes() {
    }

    /** {@code GET /v1/decision-sets}. */
    public record DecisionSets(List<DecisionSetEvent> decisionSets, int count) {
    }

    /** {@code GET /v1/decision-sets/{id}}: the set with everything recorded about it. */
    public record DecisionSetPicture(DecisionSetEvent decisionSet, List<SignalEvent> signals,
            List<EvaluationEvent> evaluations, List<ComparisonEvent> comparisons) {
    }

    /** {@code GET /v1/decision-sets/{id}/evaluations}: every revision, oldest first. */
    public record Evaluations(List<EvaluationEvent> evaluations, int count) {
    }

    /** {@code GET /v1/messages/{id}/signals}: oldest first. */
    public record Signals(List<SignalEvent> signals, int count) {
    }

    /** A {@code DECISION_SET_CREATED} event. */
    public record DecisionSetEvent(String eventId, String eventType, String level, DecisionSet payload) {
    }

    public record DecisionSet(String decisionSetId, String messageId, String sessionId, String questionText,
            Long questionHash, String activeVersion, List<String> shadowVersions, JsonNode activeDecision,
            List<JsonNode> shadowDecisions, JsonNode contextSnapshot, String timestamp) {
    }

    /** A {@code USER_BEHAVIOR_SIGNAL} event. */
    public record SignalEvent(String eventId, String eventType, String level, Signal payload) {
    }

    public record Signal(String messageId, String sessionId, String signalType, Map<String, JsonNode> signalData,
            String timestamp) {
    }

    /** A {@code SHADOW_EVALUATION_COMPLETED} event. */
    public record EvaluationEvent(String eventId, String eventType, String level, Evaluation payload) {
    }

    public record Evaluation(String evaluationId, String decisionSetId, String messageId, String sessionId,
            String activeVersion, Double activeScore, Map<String, Double> shadowScores, JsonNode signalsUsed,
            Double evaluationTimeMs, String evaluationMethod, Integer revision, String trigger, String timestamp) {
    }

    /** A {@code DECISION_COMPARISON} event. */
    public record ComparisonEvent(String eventId, String eventType, String level, Comparison payload) {
    }

    public record Comparison(String comparisonId, String decisionSetId, String activeVersion, String shadowVersion,
            ComparisonResult comparisonResult, String comparisonType, String timestamp) {
    }

    public record ComparisonResult(Boolean decisionDiverged, Boolean actionDiverged, String activeAction,
            String shadowAction, Double confidenceDelta, Double reasoningSimilarity, String similarityModel,
            String divergenceSeverity) {
    }
}
