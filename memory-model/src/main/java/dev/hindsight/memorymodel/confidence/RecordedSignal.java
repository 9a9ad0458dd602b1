package dev.hindsight.memorymodel.confidence;

import java.time.Instant;
import java.util.Objects;

/**
 * One signal on a memory as the confidence model reads it: what kind, which way, and when (event time, which decides
 * when {@link SignalRollup} moves it into the aggregate).
 *
 * <p>A usage signal is positive by definition (the memory was relevant enough to be returned). A usage signal read
 * with {@code positive = false} is normalised to positive rather than refused, so replaying an event written by a
 * careless producer never stops a partition and still counts as what it is: a retrieval.
 *
 * @param kind     explicit, usage or outcome
 * @param positive helpful (explicit), succeeded (outcome); always true for usage
 * @param at       when the signal occurred (event time)
 */
record RecordedSignal(SignalKind kind, boolean positive, Instant at) {

    public RecordedSignal {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(at, "at");
        if (kind == SignalKind.USAGE) {
            positive = true;
        }
    }

    /** A person's rating from {@code memory_feedback}. */
    public static RecordedSignal explicit(boolean helpful, Instant at) {
        return new RecordedSignal(SignalKind.EXPLICIT, helpful, at);
    }

    /** A retrieval by {@code memory_search}. */
    public static RecordedSignal usage(Instant at) {
        return new RecordedSignal(SignalKind.USAGE, true, at);
    }

    /** A task outcome from {@code memory_outcome}. */
    public static RecordedSignal outcome(boolean succeeded, Instant at) {
        return new RecordedSignal(SignalKind.OUTCOME, succeeded, at);
    }
}
