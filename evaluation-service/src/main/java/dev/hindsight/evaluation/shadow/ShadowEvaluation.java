package dev.hindsight.evaluation.shadow;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One revision of the Reality Alignment Scores of a decision set ({@code SHADOW_EVALUATION_COMPLETED},
 * design.md § Evaluation window), without {@code evaluation_time_ms}, which the caller measures.
 *
 * @param evaluationId     deterministic: name UUID of {@code tenant/decisionSetId/revision}
 * @param activeScore      the active decision's score, rounded to 4 decimals
 * @param shadowScores     shadow version to score (rounded to 4 decimals), in the decision set's shadow order
 * @param signalsUsed      wire names of the signal types that counted, distinct, in order of first occurrence
 * @param evaluationMethod {@link AlignmentWeights#METHOD}
 * @param revision         1 for the first evaluation, +1 for each late-signal re-evaluation
 * @param evaluatedAt      event time of the evaluation: the later of the decision time and the last counted signal
 */
public record ShadowEvaluation(String evaluationId, String decisionSetId, String messageId, String sessionId,
                               String activeVersion, double activeScore, Map<String, Double> shadowScores,
                               List<String> signalsUsed, String evaluationMethod, int revision, Trigger trigger,
                               Instant evaluatedAt) {

    public ShadowEvaluation {
        Objects.requireNonNull(evaluationId, "evaluationId");
        Objects.requireNonNull(trigger, "trigger");
        Objects.requireNonNull(evaluatedAt, "evaluatedAt");
        // Copy into an insertion-ordered map: shadow order is part of the result (Map.copyOf would lose it).
        shadowScores = Collections.unmodifiableMap(new LinkedHashMap<>(shadowScores));
        signalsUsed = List.copyOf(signalsUsed);
    }
}
