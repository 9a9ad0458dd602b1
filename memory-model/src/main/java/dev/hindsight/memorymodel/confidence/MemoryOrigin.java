package dev.hindsight.memorymodel.confidence;

import java.util.Locale;

/**
 * How a memory came to be, which decides its prior (design.md § Confidence): an explicitly recorded memory starts at
 * 0.8 ({@code ExplicitRecordConfidence}) and a distilled one at 0.6 ({@code DistilledConfidence}).
 *
 * <p>The two priors also differ in strength (pseudo-observations), see {@link ConfidenceModel}: a person's deliberate
 * record is worth {@value ConfidenceModel#EXPLICIT_PRIOR_STRENGTH} observations, the distiller's guess from one
 * session {@value ConfidenceModel#DISTILLED_PRIOR_STRENGTH}, so evidence moves a distilled memory about twice as fast.
 */
public enum MemoryOrigin {

    /** Recorded by a person or agent through {@code memory_record}: starts at 0.8, as Beta(4, 1). */
    EXPLICIT(new Beta(4, 1)),

    /** Extracted from a completed session by the distiller: starts at 0.6, as Beta(1.5, 1). */
    DISTILLED(new Beta(1.5, 1));

    private final Beta prior;

    // Stated as exact pseudo-counts rather than Beta.withMean(0.8, 5), whose floating-point products would give
    // alpha 4.0 and beta 0.9999999999999998; MemoryOriginTest holds them to the constants and strengths of
    // design.md § Confidence.
    MemoryOrigin(Beta prior) {
        this.prior = prior;
    }

    /** The memory's confidence before any signal: the prior's mean. */
    public double initialConfidence() {
        return prior.mean();
    }

    /** The Beta every confidence of a memory of this origin starts from. */
    public Beta prior() {
        return prior;
    }

    /** The lower-case name used on the wire and in storage ({@code explicit}, {@code distilled}). */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The origin named by {@link #wireName()}, case-insensitively.
     *
     * @throws IllegalArgumentException for any other name
     */
    public static MemoryOrigin fromWireName(String name) {
        if (name != null) {
            for (MemoryOrigin origin : values()) {
                if (origin.name().equalsIgnoreCase(name.strip())) {
                    return origin;
                }
            }
        }
        throw new IllegalArgumentException("unknown memory origin: " + name);
    }
}
