package dev.hindsight.evaluation.shadow;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * Decides <em>when</em> a decision set is (re-)evaluated, from its persisted {@link WindowState} and the clock.
 *
 * <p>The window is in event time: it closes {@code window} after the decision's own timestamp, so replaying last
 * month's decisions closes their windows at once instead of waiting 30 real minutes, and the outcome does not depend
 * on how fast events are processed. The settle time is processing time after the decision set arrived: it lets the
 * signals sent together with a historical decision set arrive before the window-closed evaluation is taken, instead
 * of each of them producing a revision. The decision depends on nothing but the persisted state and {@code now}, so
 * a restart changes nothing: the next check after it answers what the check before it would have.
 */
public final class EvaluationWindow {

    public static final Duration DEFAULT_WINDOW = Duration.ofMinutes(30);
    public static final Duration DEFAULT_SETTLE = Duration.ofSeconds(5);

    private final Duration window;
    private final Duration settle;

    public EvaluationWindow(Duration window, Duration settle) {
        this.window = requireNonNegative(window, "window");
        this.settle = requireNonNegative(settle, "settle");
    }

    /** A 30-minute window with a 5-second settle time. */
    public static EvaluationWindow defaults() {
        return new EvaluationWindow(DEFAULT_WINDOW, DEFAULT_SETTLE);
    }

    /**
     * Whether an evaluation is due now, and why.
     * <ul>
     * <li>Nothing published yet: {@link Trigger#TERMINAL_SIGNAL} as soon as a terminal signal is stored; otherwise
     *     {@link Trigger#WINDOW_CLOSED} once {@code now} is at or past both the window end and
     *     {@code receivedAt + settle}; otherwise nothing.</li>
     * <li>A revision published: {@link Trigger#LATE_SIGNAL} when more signals are stored than that revision used,
     *     otherwise nothing (a re-check, a redelivery or a restart never publishes a duplicate revision).</li>
     * </ul>
     */
    public Optional<Trigger> due(WindowState state, Instant now) {
        if (state.publishedRevision() > 0) {
            return state.signalCount() > state.signalsAtLastRevision()
                    ? Optional.of(Trigger.LATE_SIGNAL)
                    : Optional.empty();
        }
        if (state.hasTerminal()) {
            return Optional.of(Trigger.TERMINAL_SIGNAL);
        }
        boolean windowClosed = !now.isBefore(windowEnd(state.decidedAt()));
        boolean settled = !now.isBefore(state.receivedAt().plus(settle));
        return windowClosed && settled ? Optional.of(Trigger.WINDOW_CLOSED) : Optional.empty();
    }

    /** The event time at which the window of a decision taken at {@code decidedAt} closes. */
    public Instant windowEnd(Instant decidedAt) {
        return decidedAt.plus(window);
    }

    public Duration window() {
        return window;
    }

    public Duration settle() {
        return settle;
    }

    private static Duration requireNonNegative(Duration duration, String name) {
        Objects.requireNonNull(duration, name);
        if (duration.isNegative()) {
            throw new IllegalArgumentException(name + " must not be negative, was " + duration);
        }
        return duration;
    }
}
