package dev.hindsight.memorymodel.confidence;

import java.util.Collection;
import java.util.Objects;

/**
 * A memory's confidence (design.md § Confidence): its Beta starts at its origin's prior and every signal adds its
 * kind's learned weight to alpha (positive) or beta (negative); the confidence is the mean.
 *
 * <pre>
 * alpha = prior.alpha + Σ_kind weight(kind) · positives(kind)
 * beta  = prior.beta  + Σ_kind weight(kind) · negatives(kind)
 * </pre>
 *
 * It reads counts only, so it is the same whether the signals are individual rows, a rolled-up aggregate or both,
 * and the same on every replay.
 *
 * <p><b>Prior strength.</b> The initial means are fixed (0.8 explicit, 0.6 distilled, design.md § Confidence), but
 * not how much evidence they are worth. We chose {@value #EXPLICIT_PRIOR_STRENGTH} pseudo-observations for an explicit
 * record, Beta(4, 1), and {@value #DISTILLED_PRIOR_STRENGTH} for a distilled one, Beta(1.5, 1). At the prior weights
 * (explicit 0.7, usage and outcome 0.5), that gives:
 * <ul>
 * <li>a fresh explicit memory (0.800) survives one unhelpful rating (4 / 5.7 = 0.702, still searchable) but not two
 * (0.625), nor two failed outcomes (0.667): a person's deliberate record deserves one dissent before it disappears,
 * and no more. Strength 5 is the smallest that keeps it searchable after one dissent (4.9 is the exact bound);
 * a stronger prior would need three or more unhelpful ratings to hide a memory people keep rejecting;</li>
 * <li>a fresh distilled memory (0.600) is below {@link #MIN_CONFIDENCE}; it becomes searchable after two independent
 * confirmations (two helpful ratings: 0.744; a helpful rating and a succeeded outcome: 0.730; two succeeded outcomes:
 * 0.714) but not after one (0.688), and one unhelpful rating sinks it to 0.469. The distiller's heuristic guess from
 * one session is weaker evidence than a person's decision, hence the weaker prior: with strength 5 it would need
 * three helpful ratings to surface, which in practice means never.</li>
 * </ul>
 * Usage signals lift confidence too (each retrieval adds the usage weight to alpha), by design
 * (design.md § Confidence); {@link ProjectWeights} lowers that weight in projects where retrieved memories are rated
 * unhelpful.
 */
public final class ConfidenceModel {

    /**
     * {@code MinConfidence} (design.md § Semantic search): search returns only memories at or above this confidence.
     */
    public static final double MIN_CONFIDENCE = 0.7;

    /**
     * {@code ExplicitRecordConfidence} (design.md § Confidence): initial confidence of a memory recorded through
     * {@code memory_record}.
     */
    public static final double EXPLICIT_RECORD_CONFIDENCE = 0.8;

    /** {@code DistilledConfidence} (design.md § Confidence): initial confidence of a memory the distiller extracted. */
    public static final double DISTILLED_CONFIDENCE = 0.6;

    /**
     * {@code DefaultSearchLimit} (design.md § Semantic search): at most this many memories per search when the caller
     * gives no limit.
     */
    public static final int DEFAULT_SEARCH_LIMIT = 10;

    /** Pseudo-observations behind an explicit memory's prior (see the class comment for why 5). */
    public static final double EXPLICIT_PRIOR_STRENGTH = 5.0;

    /** Pseudo-observations behind a distilled memory's prior (see the class comment for why 2.5). */
    public static final double DISTILLED_PRIOR_STRENGTH = 2.5;

    private ConfidenceModel() {
    }

    /**
     * The memory's Beta after all its signals: the origin's prior plus each kind's counts times the kind's weight.
     *
     * @param origin  how the memory was made (decides the prior)
     * @param signals all its signals as counts ({@link SignalRollup#total} for aggregate + recent)
     * @param weights the project's learned weights
     */
    public static Beta posterior(MemoryOrigin origin, SignalCounts signals, ProjectWeights weights) {
        Objects.requireNonNull(origin, "origin");
        Objects.requireNonNull(signals, "signals");
        Objects.requireNonNull(weights, "weights");
        double positive = 0;
        double negative = 0;
        for (SignalKind kind : SignalKind.values()) {
            double weight = weights.weight(kind);
            positive += weight * signals.positives(kind);
            negative += weight * signals.negatives(kind);
        }
        return origin.prior().plus(positive, negative);
    }

    /** The memory's confidence: the mean of its {@link #posterior}, in (0, 1). */
    public static double confidence(MemoryOrigin origin, SignalCounts signals, ProjectWeights weights) {
        return posterior(origin, signals, weights).mean();
    }

    /**
     * The confidence from hybrid storage: the rolled-up aggregate plus the signals still stored individually. Equal to
     * {@link #confidence(MemoryOrigin, SignalCounts, ProjectWeights)} of their total, by construction.
     */
    public static double confidence(MemoryOrigin origin, SignalCounts aggregate, Collection<RecordedSignal> recent,
                                    ProjectWeights weights) {
        return confidence(origin, SignalRollup.total(aggregate, recent), weights);
    }

    /** Whether search may return a memory with this confidence: at or above {@link #MIN_CONFIDENCE}. */
    public static boolean searchable(double confidence) {
        return confidence >= MIN_CONFIDENCE;
    }
}
