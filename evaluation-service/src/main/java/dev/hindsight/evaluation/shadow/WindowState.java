package dev.hindsight.evaluation.shadow;

import java.time.Instant;
import java.util.Objects;

/**
 * What {@link EvaluationWindow} needs to know about one decision set, as persisted by the wiring.
 *
 * @param decidedAt            the decision set's own timestamp (event time)
 * @param receivedAt           processing time at which the decision set arrived here
 * @param publishedRevision    the last revision published, 0 when none yet
 * @param signalsAtLastRevision how many distinct signals were stored when the last published revision was computed
 *                             (0 when none)
 * @param signalCount          how many distinct signals are stored for the message now
 * @param hasTerminal          whether any stored signal is terminal
 */
public record WindowState(Instant decidedAt, Instant receivedAt, int publishedRevision, int signalsAtLastRevision,
                          int signalCount, boolean hasTerminal) {

    public WindowState {
        Objects.requireNonNull(decidedAt, "decidedAt");
        Objects.requireNonNull(receivedAt, "receivedAt");
    }
}
