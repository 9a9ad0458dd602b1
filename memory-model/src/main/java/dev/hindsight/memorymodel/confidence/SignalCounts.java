package dev.hindsight.memorymodel.confidence;

import java.util.Collection;
import java.util.Objects;

/**
 * A memory's signals reduced to counts per kind and direction: all the confidence model needs, which is why old
 * signals can be rolled up into one of these (design.md § Signal storage) without changing any confidence.
 *
 * <p>There is no negative usage count: a retrieval is always positive (see {@link RecordedSignal}).
 *
 * @param explicitPositive  helpful ratings; &ge; 0
 * @param explicitNegative  unhelpful ratings; &ge; 0
 * @param usage             retrievals by search; &ge; 0
 * @param outcomePositive   succeeded outcomes; &ge; 0
 * @param outcomeNegative   failed outcomes; &ge; 0
 */
public record SignalCounts(long explicitPositive, long explicitNegative, long usage, long outcomePositive,
                           long outcomeNegative) {

    /** No signals: a fresh memory, or an aggregate before the first rollup. */
    public static final SignalCounts ZERO = new SignalCounts(0, 0, 0, 0, 0);

    public SignalCounts {
        requireCount(explicitPositive, "explicitPositive");
        requireCount(explicitNegative, "explicitNegative");
        requireCount(usage, "usage");
        requireCount(outcomePositive, "outcomePositive");
        requireCount(outcomeNegative, "outcomeNegative");
    }

    /** The counts of these signals; an empty collection gives {@link #ZERO}. */
    public static SignalCounts of(Collection<RecordedSignal> signals) {
        Objects.requireNonNull(signals, "signals");
        long explicitPositive = 0;
        long explicitNegative = 0;
        long usage = 0;
        long outcomePositive = 0;
        long outcomeNegative = 0;
        for (RecordedSignal signal : signals) {
            Objects.requireNonNull(signal, "signal");
            switch (signal.kind()) {
                case EXPLICIT -> {
                    if (signal.positive()) {
                        explicitPositive++;
                    } else {
                        explicitNegative++;
                    }
                }
                case USAGE -> usage++;
                case OUTCOME -> {
                    if (signal.positive()) {
                        outcomePositive++;
                    } else {
                        outcomeNegative++;
                    }
                }
            }
        }
        return new SignalCounts(explicitPositive, explicitNegative, usage, outcomePositive, outcomeNegative);
    }

    /**
     * Both sets of counts together: an aggregate plus recent signals, or two partial aggregates.
     *
     * @throws ArithmeticException if a count overflows, rather than wrapping into a negative count
     */
    public SignalCounts plus(SignalCounts other) {
        Objects.requireNonNull(other, "other");
        return new SignalCounts(
                Math.addExact(explicitPositive, other.explicitPositive),
                Math.addExact(explicitNegative, other.explicitNegative),
                Math.addExact(usage, other.usage),
                Math.addExact(outcomePositive, other.outcomePositive),
                Math.addExact(outcomeNegative, other.outcomeNegative));
    }

    /** These counts with one more signal: the step of a fold over a memory's signal events. */
    public SignalCounts plus(RecordedSignal signal) {
        Objects.requireNonNull(signal, "signal");
        return switch (signal.kind()) {
            case EXPLICIT -> signal.positive()
                    ? new SignalCounts(Math.addExact(explicitPositive, 1), explicitNegative, usage, outcomePositive,
                            outcomeNegative)
                    : new SignalCounts(explicitPositive, Math.addExact(explicitNegative, 1), usage, outcomePositive,
                            outcomeNegative);
            case USAGE -> new SignalCounts(explicitPositive, explicitNegative, Math.addExact(usage, 1),
                    outcomePositive, outcomeNegative);
            case OUTCOME -> signal.positive()
                    ? new SignalCounts(explicitPositive, explicitNegative, usage, Math.addExact(outcomePositive, 1),
                            outcomeNegative)
                    : new SignalCounts(explicitPositive, explicitNegative, usage, outcomePositive,
                            Math.addExact(outcomeNegative, 1));
        };
    }

    /** Positive signals of one kind (for usage: every retrieval). */
    public long positives(SignalKind kind) {
        return switch (Objects.requireNonNull(kind, "kind")) {
            case EXPLICIT -> explicitPositive;
            case USAGE -> usage;
            case OUTCOME -> outcomePositive;
        };
    }

    /** Negative signals of one kind (for usage: always 0). */
    public long negatives(SignalKind kind) {
        return switch (Objects.requireNonNull(kind, "kind")) {
            case EXPLICIT -> explicitNegative;
            case USAGE -> 0;
            case OUTCOME -> outcomeNegative;
        };
    }

    /** Every signal counted, of every kind. */
    public long total() {
        return explicitPositive + explicitNegative + usage + outcomePositive + outcomeNegative;
    }

    /**
     * What the signals of one kind predicted about the memory's usefulness: usage predicts helpful as soon as the
     * memory was retrieved once; explicit and outcome predict by majority, and a tie predicts nothing.
     */
    public Prediction prediction(SignalKind kind) {
        long positives = positives(kind);
        long negatives = negatives(kind);
        if (positives > negatives) {
            return Prediction.HELPFUL;
        }
        if (negatives > positives) {
            return Prediction.UNHELPFUL;
        }
        return Prediction.NONE;
    }

    private static void requireCount(long count, String name) {
        if (count < 0) {
            throw new IllegalArgumentException(name + " must be >= 0, was " + count);
        }
    }
}
