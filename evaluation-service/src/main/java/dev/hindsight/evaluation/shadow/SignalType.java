package dev.hindsight.evaluation.shadow;

import java.util.Locale;
import java.util.Optional;

/**
 * The user behaviour signal types (design.md § Behaviour signals), with their wire names and whether they end the
 * interaction.
 */
public enum SignalType {
    SMOOTH_COMPLETION(true),
    USER_FOLLOWUP_OVERRIDE(false),
    DELAYED_COMM_REQUEST(false),
    REASK_SAME_QUESTION(false),
    PHASE_VIOLATION(false),
    ABANDONED_RESPONSE(true),
    EXPLICIT_FEEDBACK(true);

    private final boolean terminal;

    SignalType(boolean terminal) {
        this.terminal = terminal;
    }

    /** The wire {@code signal_type} value, e.g. {@code user_followup_override}. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Terminal signals say the user is done with the message, so the decision set can be scored without waiting for
     * its window to close.
     */
    public boolean terminal() {
        return terminal;
    }

    /** The type for a wire name, or empty for a type this version does not know (such a signal is not scored). */
    public static Optional<SignalType> fromWireName(String wireName) {
        if (wireName == null) {
            return Optional.empty();
        }
        for (SignalType type : values()) {
            if (type.wireName().equals(wireName)) {
                return Optional.of(type);
            }
        }
        return Optional.empty();
    }
}
