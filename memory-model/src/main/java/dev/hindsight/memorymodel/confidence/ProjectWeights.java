package dev.hindsight.memorymodel.confidence;

import java.util.Objects;

/**
 * A project's learned trust in each signal kind (design.md § Signal weights): one Beta per kind, whose mean is the
 * weight a signal of that kind carries in every memory's confidence. Starts at {@link #PRIORS}: explicit 7:3, usage
 * 5:5, outcome 5:5.
 *
 * <p>How it learns ({@link #learnFromFeedback}): an explicit rating is the ground truth. Every other kind that had
 * predicted something about the rated memory is scored against it, +1 alpha when it agreed and +1 beta when it
 * contradicted. Over time usage and outcome weigh what they are worth in this project: if memories that agents keep
 * retrieving are mostly rated unhelpful, retrievals stop lifting confidence much.
 *
 * <p>The explicit weight does not learn; it stays at its prior (0.7) unless an operator configures another. Reasons:
 * explicit feedback is the yardstick the other kinds are measured with, and a yardstick measured against what it
 * measures has no anchor (explicit learning from outcome while outcome learns from explicit can drift together in
 * either direction); and a fixed explicit weight keeps the promises {@link ConfidenceModel} documents, such as a fresh
 * explicit memory surviving one unhelpful rating but not two. The explicit Beta is still part of the record so that a
 * project can be configured with another trust in its raters, and so that stored weights have one shape.
 *
 * <p>Every update adds exactly 1 to one parameter and depends only on the rating and that memory's own earlier
 * signals, never on the current weights, so the weights after a set of ratings are the same in whatever order the
 * ratings of different memories are folded in: replaying {@code hindsight.memory.v1} (ordered per memory, not across
 * memories) always rebuilds the same weights.
 *
 * @param explicit trust in explicit ratings
 * @param usage    trust in retrievals
 * @param outcome  trust in reported task outcomes
 */
public record ProjectWeights(Beta explicit, Beta usage, Beta outcome) {

    /** The initial priors (design.md § Signal weights): explicit 70% (7:3), usage 50% (5:5), outcome 50% (5:5). */
    public static final ProjectWeights PRIORS = new ProjectWeights(new Beta(7, 3), new Beta(5, 5), new Beta(5, 5));

    public ProjectWeights {
        Objects.requireNonNull(explicit, "explicit");
        Objects.requireNonNull(usage, "usage");
        Objects.requireNonNull(outcome, "outcome");
    }

    /** The Beta behind one kind's weight. */
    public Beta beta(SignalKind kind) {
        return switch (Objects.requireNonNull(kind, "kind")) {
            case EXPLICIT -> explicit;
            case USAGE -> usage;
            case OUTCOME -> outcome;
        };
    }

    /**
     * The weight one signal of this kind adds to a memory's alpha (positive) or beta (negative): the mean of the
     * kind's Beta, in (0, 1). Not normalised across kinds: each weight says how far one such signal is to be trusted
     * on its own, so learning that usage is unreliable does not make explicit ratings count more.
     */
    public double weight(SignalKind kind) {
        return beta(kind).mean();
    }

    /**
     * The weights after one explicit rating ({@code LearnFromFeedback}, design.md § Signal weights).
     *
     * <p>Usage predicted "helpful" if the memory had been retrieved at least once; outcome predicted by majority of
     * its succeeded and failed outcomes, nothing on a tie. A kind without a prediction learns nothing. Explicit does
     * not learn (see the class comment).
     *
     * @param helpful        the rating: the ground truth
     * @param evidenceBefore the rated memory's signal counts just before this rating, in event order: its rolled-up
     *                       aggregate plus its recent signals ({@link SignalRollup#total}); not including this rating
     */
    public ProjectWeights learnFromFeedback(boolean helpful, SignalCounts evidenceBefore) {
        Objects.requireNonNull(evidenceBefore, "evidenceBefore");
        return new ProjectWeights(
                explicit,
                scored(usage, evidenceBefore.prediction(SignalKind.USAGE), helpful),
                scored(outcome, evidenceBefore.prediction(SignalKind.OUTCOME), helpful));
    }

    private static Beta scored(Beta trust, Prediction prediction, boolean helpful) {
        if (prediction == Prediction.NONE) {
            return trust;
        }
        return prediction.agreesWith(helpful) ? trust.plus(1, 0) : trust.plus(0, 1);
    }
}
