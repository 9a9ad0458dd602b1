package dev.hindsight.evaluation.shadow;

import java.util.Locale;

/** Why a shadow evaluation was computed: the first revision by a terminal signal or the closed window, later ones by late signals. */
public enum Trigger {
    TERMINAL_SIGNAL,
    WINDOW_CLOSED,
    LATE_SIGNAL;

    /** Lower snake case, e.g. {@code window_closed}. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
