package dev.hindsight.memorymodel.confidence;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

/**
 * Hybrid signal storage (design.md § Signal storage): a memory keeps its recent signals individually (full detail, 30
 * days by default) and older ones only as counts. This class decides the split; the caller deletes the rolled-up rows
 * and stores the new aggregate in one transaction, since rolling the same signal up twice would count it twice.
 *
 * <p>Because {@link ConfidenceModel} reads counts only, a rollup never changes a confidence.
 */
final class SignalRollup {

    /** Signals stay individual for 30 days (design.md § Signal storage). */
    public static final Duration DEFAULT_RETENTION = Duration.ofDays(30);

    private SignalRollup() {
    }

    /**
     * The outcome of one rollup.
     *
     * @param kept      the signals that stay individual, in their input order
     * @param rolledUp  the signals moved into the aggregate, in their input order: the rows to delete
     * @param aggregate the previous aggregate plus the counts of {@code rolledUp}
     */
    public record Result(List<RecordedSignal> kept, List<RecordedSignal> rolledUp, SignalCounts aggregate) {

        public Result {
            kept = List.copyOf(kept);
            rolledUp = List.copyOf(rolledUp);
            Objects.requireNonNull(aggregate, "aggregate");
        }

        /** Whether anything moved; a daily job that finds nothing to do can skip its write. */
        public boolean changed() {
            return !rolledUp.isEmpty();
        }
    }

    /** {@link #rollup(Collection, SignalCounts, Instant, Duration)} with the default 30-day retention. */
    public static Result rollup(Collection<RecordedSignal> signals, SignalCounts aggregate, Instant now) {
        return rollup(signals, aggregate, now, DEFAULT_RETENTION);
    }

    /**
     * Moves every signal older than {@code now - retention} into the aggregate. A signal exactly at the cutoff stays
     * individual: it is not yet older than the retention.
     *
     * @param signals   the memory's individually stored signals
     * @param aggregate its current aggregate ({@link SignalCounts#ZERO} before the first rollup)
     * @param now       the rollup's reference time (the job's clock, or an event time when replaying)
     * @param retention how long signals stay individual; &ge; 0
     */
    public static Result rollup(Collection<RecordedSignal> signals, SignalCounts aggregate, Instant now,
                                Duration retention) {
        Objects.requireNonNull(signals, "signals");
        Objects.requireNonNull(aggregate, "aggregate");
        Instant cutoff = cutoff(now, retention);
        List<RecordedSignal> kept = new ArrayList<>();
        List<RecordedSignal> rolledUp = new ArrayList<>();
        for (RecordedSignal signal : signals) {
            Objects.requireNonNull(signal, "signal");
            (signal.at().isBefore(cutoff) ? rolledUp : kept).add(signal);
        }
        return new Result(kept, rolledUp, aggregate.plus(SignalCounts.of(rolledUp)));
    }

    /**
     * The instant before which signals are rolled up: {@code now - retention}, clamped to {@link Instant#MIN} so a
     * very long retention means "keep everything" rather than an exception.
     */
    public static Instant cutoff(Instant now, Duration retention) {
        Objects.requireNonNull(now, "now");
        Objects.requireNonNull(retention, "retention");
        if (retention.isNegative()) {
            throw new IllegalArgumentException("retention must not be negative, was " + retention);
        }
        try {
            return now.minus(retention);
        } catch (DateTimeException | ArithmeticException beyondTheTimeline) {
            return Instant.MIN;
        }
    }

    /** All of a memory's signals as counts: what {@link ConfidenceModel} and {@link ProjectWeights} read. */
    public static SignalCounts total(SignalCounts aggregate, Collection<RecordedSignal> recent) {
        Objects.requireNonNull(aggregate, "aggregate");
        return aggregate.plus(SignalCounts.of(recent));
    }
}
