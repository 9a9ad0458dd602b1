package dev.hindsight.evaluation.shadow;

import java.util.Objects;

/**
 * The targets and weights of the Reality Alignment Score (design.md § Reality Alignment Score), one
 * {@link Rule} per signal row of the table, plus the prior weight {@code w0}.
 *
 * <p>The targets and weights are the {@link #defaults()}; only the prior weight is configuration
 * ({@code hindsight.evaluation.shadow.prior-weight}). {@link #method()} stays {@code reality_alignment.v1} for any
 * values, because it names the formula and the meaning of each rule, not the numbers; a change to what a rule means
 * (not to its numbers) must bump the method version.
 *
 * @param prior                the prior weight {@code w0}, pulling every score towards 0.5 while signals are few; &gt; 0
 * @param smoothCompletion     {@code smooth_completion}
 * @param explicitFeedbackUp   {@code explicit_feedback} with thumbs up
 * @param explicitFeedbackDown {@code explicit_feedback} with thumbs down
 * @param userFollowupOverride {@code user_followup_override}; aligned = the decision did what the user asked for
 * @param delayedCommRequest   {@code delayed_comm_request}; aligned = the decision involved communication
 * @param reaskSameQuestion    {@code reask_same_question}
 * @param phaseViolation       {@code phase_violation}; aligned = the decision avoids the violation
 * @param abandonedResponse    {@code abandoned_response}
 */
public record AlignmentWeights(double prior, Rule smoothCompletion, Rule explicitFeedbackUp,
                               Rule explicitFeedbackDown, Rule userFollowupOverride, Rule delayedCommRequest,
                               Rule reaskSameQuestion, Rule phaseViolation, Rule abandonedResponse) {

    /** The versioned {@code evaluation_method} written on every evaluation. */
    public static final String METHOD = "reality_alignment.v1";

    public AlignmentWeights {
        // A positive prior keeps the denominator above zero even when every signal weight is zero.
        if (!(prior > 0) || Double.isInfinite(prior)) {
            throw new IllegalArgumentException("prior weight must be positive and finite, was " + prior);
        }
        Objects.requireNonNull(smoothCompletion, "smoothCompletion");
        Objects.requireNonNull(explicitFeedbackUp, "explicitFeedbackUp");
        Objects.requireNonNull(explicitFeedbackDown, "explicitFeedbackDown");
        Objects.requireNonNull(userFollowupOverride, "userFollowupOverride");
        Objects.requireNonNull(delayedCommRequest, "delayedCommRequest");
        Objects.requireNonNull(reaskSameQuestion, "reaskSameQuestion");
        Objects.requireNonNull(phaseViolation, "phaseViolation");
        Objects.requireNonNull(abandonedResponse, "abandonedResponse");
    }

    /** The default targets and weights, with {@code w0 = 1.0}. */
    public static AlignmentWeights defaults() {
        return new AlignmentWeights(
                1.0,
                Rule.of(1.0, 1, 0.5, 0.5),
                Rule.of(1.0, 3, 0.5, 1),
                Rule.of(0.0, 3, 0.8, 1),
                new Rule(0.0, 2, 1.0, 0.3, 2),
                new Rule(0.3, 1, 0.8, 0.4, 1),
                Rule.of(0.1, 1.5, 0.6, 1),
                new Rule(0.0, 3, 1.0, 0.0, 3),
                Rule.of(0.3, 1, 0.5, 0.5));
    }

    /** The versioned {@code evaluation_method}: {@code reality_alignment.v1}. */
    /** The same rules with another prior weight w0 (configuration). */
    public AlignmentWeights withPrior(double prior) {
        return new AlignmentWeights(prior, smoothCompletion, explicitFeedbackUp, explicitFeedbackDown,
                userFollowupOverride, delayedCommRequest, reaskSameQuestion, phaseViolation, abandonedResponse);
    }

    public String method() {
        return METHOD;
    }

    /**
     * One row of the table: the target and weight for a decision that took the active action, and for one that took
     * another action, whose target depends on whether it did what the signal says the user needed ("aligned").
     *
     * <p>Targets lie in [0, 1] and weights are finite and non-negative, which is what keeps every score in [0, 1].
     */
    public record Rule(double activeTarget, double activeWeight, double otherAlignedTarget,
                       double otherMisalignedTarget, double otherWeight) {

        public Rule {
            requireTarget(activeTarget);
            requireTarget(otherAlignedTarget);
            requireTarget(otherMisalignedTarget);
            requireWeight(activeWeight);
            requireWeight(otherWeight);
        }

        /** A row whose other-action target does not depend on alignment. */
        public static Rule of(double activeTarget, double activeWeight, double otherTarget, double otherWeight) {
            return new Rule(activeTarget, activeWeight, otherTarget, otherTarget, otherWeight);
        }

        private static void requireTarget(double target) {
            if (!(target >= 0 && target <= 1)) {
                throw new IllegalArgumentException("a target must lie in [0, 1], was " + target);
            }
        }

        private static void requireWeight(double weight) {
            if (!(weight >= 0) || Double.isInfinite(weight)) {
                throw new IllegalArgumentException("a weight must be finite and non-negative, was " + weight);
            }
        }
    }
}
