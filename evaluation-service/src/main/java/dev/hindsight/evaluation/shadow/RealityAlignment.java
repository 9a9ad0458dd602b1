package dev.hindsight.evaluation.shadow;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * The Reality Alignment Score of one decision given the signals on its message:
 * {@code (w0·0.5 + Σ w·t) / (w0 + Σ w)}, with t and w per signal from {@link AlignmentWeights}.
 *
 * <p>The rules, precisely (the specification leaves these words to the code):
 * <ul>
 * <li>A decision <em>takes the active action</em> when its {@code action} equals the active decision's action: the
 *     active decision itself always, and every shadow that chose the same action. All of these get the table's
 *     "active" column, because the signal judged that action, whichever classifier proposed it.</li>
 * <li>A <em>communication</em> action is one with an underscore-separated word {@code COMM} (or a word starting with
 *     {@code COMMUNICAT}), case-insensitive: {@code REQUIRE_COMM}, {@code SUGGEST_COMM}. Whole words rather than a
 *     substring, so that an action such as {@code RECOMMEND_SOURCE} is not taken for communication.</li>
 * <li>{@code user_followup_override}, other action: aligned when it did what the user asked for, i.e. when the signal
 *     names a {@code requestedAction}, the decision's action equals it; otherwise, when the user's action starts with
 *     {@code /comm}, the decision's action is communication; otherwise not aligned (we cannot tell what was asked).</li>
 * <li>{@code delayed_comm_request}, other action: aligned when the action is communication.</li>
 * <li>{@code phase_violation}, other action: aligned ("avoids the violation") when the violation type contains
 *     {@code comm} (case-insensitive) and the action is not communication; when the violation is about something else,
 *     any action other than the active one avoids it (which every other-action decision is).</li>
 * <li>{@code explicit_feedback}: thumbs up or down picks the row; feedback with neither says nothing and is skipped.</li>
 * </ul>
 * Scores are returned unrounded; {@link #round4(double)} is applied once, on output.
 */
public final class RealityAlignment {

    private static final double NEUTRAL = 0.5;

    private final AlignmentWeights weights;

    public RealityAlignment(AlignmentWeights weights) {
        this.weights = Objects.requireNonNull(weights, "weights");
    }

    /**
     * The score of {@code decision}, in [0, 1].
     *
     * @param decision     the decision to score (active or shadow)
     * @param activeAction the active decision's action
     * @param signals      the signals on the decision set's message; order does not change the score
     */
    public double score(Decision decision, String activeAction, List<Signal> signals) {
        boolean takesActiveAction = decision.action().equals(activeAction);
        double numerator = weights.prior() * NEUTRAL;
        double denominator = weights.prior();
        for (Signal signal : signals) {
            AlignmentWeights.Rule rule = rule(signal);
            if (rule == null) {
                continue;
            }
            if (takesActiveAction) {
                numerator += rule.activeWeight() * rule.activeTarget();
                denominator += rule.activeWeight();
            } else {
                double target = aligned(signal, decision.action(), activeAction)
                        ? rule.otherAlignedTarget()
                        : rule.otherMisalignedTarget();
                numerator += rule.otherWeight() * target;
                denominator += rule.otherWeight();
            }
        }
        return numerator / denominator;
    }

    /** Whether the signal contributes to a score at all (explicit feedback without a thumb does not). */
    public boolean counts(Signal signal) {
        return rule(signal) != null;
    }

    /** Whether the action involves communication (see the class comment for the exact rule). */
    public static boolean isCommunication(String action) {
        if (action == null) {
            return false;
        }
        for (String word : action.toUpperCase(Locale.ROOT).split("[^A-Z0-9]+")) {
            if (word.equals("COMM") || word.startsWith("COMMUNICAT")) {
                return true;
            }
        }
        return false;
    }

    /** Rounds half-up to 4 decimals, as every score and delta is written. */
    public static double round4(double value) {
        return BigDecimal.valueOf(value).setScale(4, RoundingMode.HALF_UP).doubleValue();
    }

    private AlignmentWeights.Rule rule(Signal signal) {
        return switch (signal.type()) {
            case SMOOTH_COMPLETION -> weights.smoothCompletion();
            case EXPLICIT_FEEDBACK -> signal.thumbsUp() == null ? null
                    : signal.thumbsUp() ? weights.explicitFeedbackUp() : weights.explicitFeedbackDown();
            case USER_FOLLOWUP_OVERRIDE -> weights.userFollowupOverride();
            case DELAYED_COMM_REQUEST -> weights.delayedCommRequest();
            case REASK_SAME_QUESTION -> weights.reaskSameQuestion();
            case PHASE_VIOLATION -> weights.phaseViolation();
            case ABANDONED_RESPONSE -> weights.abandonedResponse();
        };
    }

    /** For a decision that took another action than the active one: did it do what this signal says was needed? */
    private static boolean aligned(Signal signal, String action, String activeAction) {
        return switch (signal.type()) {
            case USER_FOLLOWUP_OVERRIDE -> didWhatUserAsked(signal, action);
            case DELAYED_COMM_REQUEST -> isCommunication(action);
            case PHASE_VIOLATION -> avoidsViolation(signal, action, activeAction);
            // The other rows have a single target for other actions: alignment does not matter.
            default -> true;
        };
    }

    private static boolean didWhatUserAsked(Signal signal, String action) {
        if (signal.requestedAction() != null) {
            return action.equals(signal.requestedAction());
        }
        String userAction = signal.userAction();
        if (userAction != null && userAction.strip().toLowerCase(Locale.ROOT).startsWith("/comm")) {
            return isCommunication(action);
        }
        return false;
    }

    private static boolean avoidsViolation(Signal signal, String action, String activeAction) {
        String violation = signal.violationType();
        if (violation != null && violation.toLowerCase(Locale.ROOT).contains("comm")) {
            return !isCommunication(action);
        }
        return !action.equals(activeAction);
    }
}
