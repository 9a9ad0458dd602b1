package dev.hindsight.evaluation.shadow;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The shadow score calculator (design.md § Reality Alignment Score): turns a decision set and the signals on its
 * message into one {@link ShadowEvaluation} revision. Pure: the same inputs give the same evaluation, id included, on
 * every replay.
 */
public final class ShadowScoreCalculator {

    private final AlignmentWeights weights;
    private final RealityAlignment alignment;

    public ShadowScoreCalculator(AlignmentWeights weights) {
        this.weights = Objects.requireNonNull(weights, "weights");
        this.alignment = new RealityAlignment(weights);
    }

    /**
     * Scores the active decision and every shadow.
     *
     * @param set      the decision set
     * @param signals  the signals on the set's message, in any order; sorted here by (occurredAt, eventId), and a
     *                 signal delivered twice (same eventId) counts once
     * @param revision 1 for the first evaluation of the set, then 2, 3, ... for late signals
     * @param trigger  why this revision is computed
     */
    public ShadowEvaluation evaluate(DecisionSet set, List<Signal> signals, int revision, Trigger trigger) {
        if (revision < 1) {
            throw new IllegalArgumentException("revision starts at 1, was " + revision);
        }
        List<Signal> used = usedSignals(signals);
        String activeAction = set.active().action();

        double activeScore = RealityAlignment.round4(alignment.score(set.active(), activeAction, used));
        Map<String, Double> shadowScores = new LinkedHashMap<>();
        for (Decision shadow : set.shadows()) {
            shadowScores.put(shadow.version(), RealityAlignment.round4(alignment.score(shadow, activeAction, used)));
        }
        Set<String> signalsUsed = new LinkedHashSet<>();
        Instant evaluatedAt = set.decidedAt();
        for (Signal signal : used) {
            signalsUsed.add(signal.type().wireName());
            if (signal.occurredAt().isAfter(evaluatedAt)) {
                evaluatedAt = signal.occurredAt();
            }
        }
        return new ShadowEvaluation(
                Ids.nameUuid(set.tenant().value(), set.decisionSetId(), Integer.toString(revision)),
                set.decisionSetId(), set.messageId(), set.sessionId(), set.activeVersion(),
                activeScore, shadowScores, new ArrayList<>(signalsUsed), weights.method(), revision, trigger,
                evaluatedAt);
    }

    /** The signals that count, in event order, each event once. */
    private List<Signal> usedSignals(List<Signal> signals) {
        List<Signal> sorted = new ArrayList<>(signals);
        sorted.sort(Signal.EVENT_ORDER);
        Set<String> seen = new HashSet<>();
        List<Signal> used = new ArrayList<>();
        for (Signal signal : sorted) {
            if (seen.add(signal.eventId()) && alignment.counts(signal)) {
                used.add(signal);
            }
        }
        return used;
    }
}
