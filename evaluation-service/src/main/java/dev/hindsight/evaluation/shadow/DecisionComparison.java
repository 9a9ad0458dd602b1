package dev.hindsight.evaluation.shadow;

import java.util.Objects;

/**
 * The comparison of the active decision with one shadow ({@code DECISION_COMPARISON},
 * design.md § Decision comparisons).
 *
 * @param comparisonId        deterministic: name UUID of {@code tenant/decisionSetId/shadowVersion}
 * @param decisionDiverged    the {@code info_need_type} differs
 * @param actionDiverged      the {@code decision_action} differs
 * @param confidenceDelta     |c(active) − c(shadow)| with low 0.4, medium 0.6, high 0.8, rounded to 4 decimals; null
 *                            when either level is unknown
 * @param reasoningSimilarity cosine similarity of the reasoning texts clamped to [0, 1], rounded to 4 decimals; null
 *                            when either text is missing or blank
 * @param comparisonType      {@code decision_divergence}, {@code action_divergence}, {@code confidence_divergence} or
 *                            {@code reasoning_analysis}
 */
public record DecisionComparison(String comparisonId, String decisionSetId, String messageId, String sessionId,
                                 String activeVersion, String shadowVersion, boolean decisionDiverged,
                                 boolean actionDiverged, String activeAction, String shadowAction,
                                 Double confidenceDelta, Double reasoningSimilarity, Severity divergenceSeverity,
                                 String comparisonType) {

    public DecisionComparison {
        Objects.requireNonNull(comparisonId, "comparisonId");
        Objects.requireNonNull(divergenceSeverity, "divergenceSeverity");
        Objects.requireNonNull(comparisonType, "comparisonType");
    }
}
