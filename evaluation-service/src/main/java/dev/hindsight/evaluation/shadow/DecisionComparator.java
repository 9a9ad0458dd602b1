package dev.hindsight.evaluation.shadow;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * The comparison engine (design.md § Decision comparisons): compares the active decision of a decision set with each
 * of its shadows.
 *
 * <p>Rules (design.md § Decision comparisons and design.md § Divergence severity):
 * <ul>
 * <li>Confidence levels map to low 0.4, medium 0.6, high 0.8 (case-insensitive), so low against high gives a
 *     {@code confidence_delta} of 0.4; an unknown or missing level gives no delta.</li>
 * <li>Severity is {@link Severity#HIGH} when the action diverged and the shadow also classified the need differently
 *     or reasoned differently (similarity below 0.5, or not measurable); {@link Severity#MEDIUM} when the action or
 *     the classification diverged, or the confidence differs by at least 0.3; otherwise {@link Severity#LOW}. The
 *     action is what the user sees, so only a diverging action can be high.</li>
 * <li>The comparison type is the most consequential difference: {@code decision_divergence}, then
 *     {@code action_divergence}, then {@code confidence_divergence} (delta at least 0.3), else
 *     {@code reasoning_analysis}.</li>
 * </ul>
 */
public final class DecisionComparator {

    /** A confidence difference at least this large is a divergence in its own right. */
    static final double CONFIDENCE_DIVERGENCE = 0.3;
    /** Reasoning less similar than this, with a diverging action, means the shadow thought differently. */
    static final double SIMILAR_REASONING = 0.5;

    private final ReasoningSimilarity similarity;

    public DecisionComparator(ReasoningSimilarity similarity) {
        this.similarity = Objects.requireNonNull(similarity, "similarity");
    }

    /** One comparison per shadow, in the decision set's shadow order; empty when the set has no shadows. */
    public List<DecisionComparison> compare(DecisionSet set) {
        Decision active = set.active();
        List<DecisionComparison> comparisons = new ArrayList<>(set.shadows().size());
        for (Decision shadow : set.shadows()) {
            boolean decisionDiverged = !Objects.equals(active.infoNeedType(), shadow.infoNeedType());
            boolean actionDiverged = !active.action().equals(shadow.action());
            Double confidenceDelta = confidenceDelta(active.confidenceLevel(), shadow.confidenceLevel());
            Double reasoningSimilarity = reasoningSimilarity(active.reasoning(), shadow.reasoning());
            comparisons.add(new DecisionComparison(
                    Ids.nameUuid(set.tenant().value(), set.decisionSetId(), shadow.version()),
                    set.decisionSetId(), set.messageId(), set.sessionId(), set.activeVersion(), shadow.version(),
                    decisionDiverged, actionDiverged, active.action(), shadow.action(),
                    confidenceDelta, reasoningSimilarity,
                    severity(decisionDiverged, actionDiverged, confidenceDelta, reasoningSimilarity),
                    comparisonType(decisionDiverged, actionDiverged, confidenceDelta)));
        }
        return comparisons;
    }

    static Severity severity(boolean decisionDiverged, boolean actionDiverged, Double confidenceDelta,
                             Double reasoningSimilarity) {
        if (actionDiverged
                && (decisionDiverged || reasoningSimilarity == null || reasoningSimilarity < SIMILAR_REASONING)) {
            return Severity.HIGH;
        }
        if (actionDiverged || decisionDiverged || confidenceDiverged(confidenceDelta)) {
            return Severity.MEDIUM;
        }
        return Severity.LOW;
    }

    static String comparisonType(boolean decisionDiverged, boolean actionDiverged, Double confidenceDelta) {
        if (decisionDiverged) {
            return "decision_divergence";
        }
        if (actionDiverged) {
            return "action_divergence";
        }
        if (confidenceDiverged(confidenceDelta)) {
            return "confidence_divergence";
        }
        return "reasoning_analysis";
    }

    private static boolean confidenceDiverged(Double confidenceDelta) {
        return confidenceDelta != null && confidenceDelta >= CONFIDENCE_DIVERGENCE;
    }

    static Double confidenceDelta(String activeLevel, String shadowLevel) {
        Double active = confidence(activeLevel);
        Double shadow = confidence(shadowLevel);
        if (active == null || shadow == null) {
            return null;
        }
        // Rounded because 0.8 - 0.4 is 0.4000000000000001 in binary floating point.
        return RealityAlignment.round4(Math.abs(active - shadow));
    }

    private static Double confidence(String level) {
        if (level == null) {
            return null;
        }
        return switch (level.strip().toLowerCase(Locale.ROOT)) {
            case "low" -> 0.4;
            case "medium" -> 0.6;
            case "high" -> 0.8;
            default -> null;
        };
    }

    /**
     * Whether a reasoning text holds anything to compare: a letter, digit, mark, punctuation or symbol. Text of only
     * spaces, control or format characters (a lone U+0005 is not {@link String#isBlank() blank}) carries no meaning,
     * and the embedding model refuses some of it outright.
     */
    static boolean visible(String text) {
        return text != null && text.codePoints().anyMatch(c -> switch (Character.getType(c)) {
            case Character.CONTROL, Character.FORMAT, Character.SPACE_SEPARATOR, Character.LINE_SEPARATOR,
                    Character.PARAGRAPH_SEPARATOR, Character.SURROGATE, Character.PRIVATE_USE, Character.UNASSIGNED ->
                false;
            default -> true;
        });
    }

    private Double reasoningSimilarity(String a, String b) {
        if (!visible(a) || !visible(b)) {
            return null;
        }
        double cosine = similarity.similarity(a, b);
        if (Double.isNaN(cosine)) {
            return null;
        }
        // Opposed embeddings say "unrelated" as far as the similarity's 0..1 scale goes.
        return RealityAlignment.round4(Math.max(0.0, Math.min(1.0, cosine)));
    }
}
