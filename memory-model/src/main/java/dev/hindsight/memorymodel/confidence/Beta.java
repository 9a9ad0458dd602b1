package dev.hindsight.memorymodel.confidence;

/**
 * A Beta distribution over a probability, kept as pseudo-counts: {@code alpha} weighs the evidence for, {@code beta}
 * the evidence against. The ReasoningBank uses it twice: for a memory's usefulness (its confidence is the mean,
 * design.md § Confidence) and for how reliable each signal kind is in a project (its weight is the mean,
 * design.md § Signal weights).
 *
 * <p>Immutable: an update returns a new value, so a fold over events never shares mutable state.
 *
 * @param alpha positive evidence; finite and &gt; 0
 * @param beta  negative evidence; finite and &gt; 0
 */
public record Beta(double alpha, double beta) {

    public Beta {
        // Strictly positive parameters keep the mean defined (no 0/0) and strictly inside (0, 1).
        requirePositive(alpha, "alpha");
        requirePositive(beta, "beta");
    }

    /**
     * A Beta with the given mean backed by {@code strength} pseudo-observations: how priors are stated ("0.8, worth
     * five observations") without hand-computing alpha and beta.
     *
     * @param mean     in (0, 1)
     * @param strength alpha + beta; finite and &gt; 0
     */
    public static Beta withMean(double mean, double strength) {
        if (!(mean > 0 && mean < 1)) {
            throw new IllegalArgumentException("mean must lie in (0, 1), was " + mean);
        }
        requirePositive(strength, "strength");
        return new Beta(mean * strength, (1 - mean) * strength);
    }

    /** The expected probability, {@code alpha / (alpha + beta)}: a memory's confidence, or a signal kind's weight. */
    public double mean() {
        return alpha / (alpha + beta);
    }

    /** {@code alpha + beta}: how many (weighted) observations stand behind the mean, i.e. how hard it is to move. */
    public double strength() {
        return alpha + beta;
    }

    /**
     * This distribution after more evidence: {@code successWeight} added to alpha and {@code failureWeight} to beta.
     * Weights rather than counts, because a memory's signals count with their kind's learned weight.
     *
     * @param successWeight finite and &ge; 0
     * @param failureWeight finite and &ge; 0
     */
    public Beta plus(double successWeight, double failureWeight) {
        requireNonNegative(successWeight, "successWeight");
        requireNonNegative(failureWeight, "failureWeight");
        return new Beta(alpha + successWeight, beta + failureWeight);
    }

    private static void requirePositive(double value, String name) {
        if (!(value > 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException(name + " must be positive and finite, was " + value);
        }
    }

    private static void requireNonNegative(double value, String name) {
        if (!(value >= 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException(name + " must be finite and non-negative, was " + value);
        }
    }
}
