package dev.hindsight.evaluation.shadow;

import java.time.Instant;
import java.util.Comparator;
import java.util.Objects;

/**
 * One user behaviour signal on a message ({@code USER_BEHAVIOR_SIGNAL}, design.md § Behaviour signals), reduced to what
 * scoring reads.
 *
 * @param eventId         the event's idempotency key; a redelivered signal has the same one and counts once
 * @param type            the signal type
 * @param occurredAt      producer time of the signal (event time)
 * @param requestedAction the {@code decision_action} the user asked for, when the producer says so; may be null
 * @param userAction      what the user did, e.g. {@code /comm search Python latest version}; may be null
 * @param thumbsUp        for {@code explicit_feedback}: true up, false down, null when not given
 * @param violationType   for {@code phase_violation}, e.g. {@code comm_in_planning_phase}; may be null
 */
public record Signal(String eventId, SignalType type, Instant occurredAt, String requestedAction, String userAction,
                     Boolean thumbsUp, String violationType) {

    /**
     * The one order in which signals are read: event time, then event id so that two signals at the same instant
     * still come out the same way on every replay.
     */
    public static final Comparator<Signal> EVENT_ORDER =
            Comparator.comparing(Signal::occurredAt).thenComparing(Signal::eventId);

    public Signal {
        Objects.requireNonNull(eventId, "eventId");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(occurredAt, "occurredAt");
    }
}
