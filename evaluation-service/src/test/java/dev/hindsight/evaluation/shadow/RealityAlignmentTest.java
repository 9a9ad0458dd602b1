package dev.hindsight.evaluation.shadow;

import static dev.hindsight.evaluation.shadow.Given.decision;
import static dev.hindsight.evaluation.shadow.Given.feedback;
import static dev.hindsight.evaluation.shadow.Given.override;
import static dev.hindsight.evaluation.shadow.Given.signal;
import static dev.hindsight.evaluation.shadow.Given.violation;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

/**
 * Given the signals on a message, then the score of a decision taking the active action and of one taking another
 * action, with the default weights (w0 = 1). Expected values are worked out by hand in the comments.
 */
class RealityAlignmentTest {

    private static final Offset<Double> EXACT = within(1e-12);

    private final RealityAlignment alignment = new RealityAlignment(AlignmentWeights.defaults());

    private double active(String activeAction, Signal... signals) {
        return alignment.score(decision("v1", activeAction), activeAction, List.of(signals));
    }

    private double other(String action, String activeAction, Signal... signals) {
        return alignment.score(decision("v2", action), activeAction, List.of(signals));
    }

    @Test
    void no_signals_leave_every_decision_at_the_prior() {
        assertThat(active("DIRECT_ANSWER")).isEqualTo(0.5);
        assertThat(other("REQUIRE_COMM", "DIRECT_ANSWER")).isEqualTo(0.5);
    }

    @Test
    void smooth_completion() {
        // active: (0.5 + 1*1.0) / (1 + 1) = 0.75; other: (0.5 + 0.5*0.5) / (1 + 0.5) = 0.5
        Signal smooth = signal("e1", SignalType.SMOOTH_COMPLETION, 30);
        assertThat(active("DIRECT_ANSWER", smooth)).isCloseTo(0.75, EXACT);
        assertThat(other("REQUIRE_COMM", "DIRECT_ANSWER", smooth)).isCloseTo(0.5, EXACT);
    }

    @Test
    void explicit_feedback_up() {
        // active: (0.5 + 3*1.0) / (1 + 3) = 0.875; other: (0.5 + 1*0.5) / (1 + 1) = 0.5
        Signal up = feedback("e1", 30, true);
        assertThat(active("DIRECT_ANSWER", up)).isCloseTo(0.875, EXACT);
        assertThat(other("REQUIRE_COMM", "DIRECT_ANSWER", up)).isCloseTo(0.5, EXACT);
    }

    @Test
    void explicit_feedback_down() {
        // active: (0.5 + 3*0.0) / (1 + 3) = 0.125; other: (0.5 + 1*0.8) / (1 + 1) = 0.65
        Signal down = feedback("e1", 30, false);
        assertThat(active("DIRECT_ANSWER", down)).isCloseTo(0.125, EXACT);
        assertThat(other("REQUIRE_COMM", "DIRECT_ANSWER", down)).isCloseTo(0.65, EXACT);
    }

    @Test
    void explicit_feedback_without_a_thumb_says_nothing() {
        Signal neither = feedback("e1", 30, null);
        assertThat(alignment.counts(neither)).isFalse();
        assertThat(active("DIRECT_ANSWER", neither)).isEqualTo(0.5);
        assertThat(other("REQUIRE_COMM", "DIRECT_ANSWER", neither)).isEqualTo(0.5);
    }

    @Test
    void user_followup_override_counts_against_the_active_action() {
        // (0.5 + 2*0.0) / (1 + 2) = 1/6
        assertThat(active("DIRECT_ANSWER", override("e1", 5, null, "/comm search Python latest version")))
                .isCloseTo(0.5 / 3, EXACT);
        // The active column applies whatever the user asked for.
        assertThat(active("REQUIRE_COMM", override("e1", 5, "SUGGEST_COMM", null))).isCloseTo(0.5 / 3, EXACT);
    }

    @Test
    void user_followup_override_with_a_comm_command_rewards_communication() {
        // did what the user asked: (0.5 + 2*1.0) / 3 = 0.8333...; did not: (0.5 + 2*0.3) / 3 = 0.3666...
        Signal comm = override("e1", 5, null, "/comm search Python latest version");
        assertThat(other("REQUIRE_COMM", "DIRECT_ANSWER", comm)).isCloseTo(2.5 / 3, EXACT);
        assertThat(other("SUGGEST_COMM", "DIRECT_ANSWER", comm)).isCloseTo(2.5 / 3, EXACT);
        assertThat(other("LOCAL_SEARCH", "DIRECT_ANSWER", comm)).isCloseTo(1.1 / 3, EXACT);
        // Leading blanks and upper case in the command do not matter.
        assertThat(other("REQUIRE_COMM", "DIRECT_ANSWER", override("e2", 5, null, "  /COMM search x")))
                .isCloseTo(2.5 / 3, EXACT);
    }

    @Test
    void user_followup_override_with_a_requested_action_rewards_exactly_that_action() {
        Signal askedForRequire = override("e1", 5, "REQUIRE_COMM", "/comm search x");
        assertThat(other("REQUIRE_COMM", "DIRECT_ANSWER", askedForRequire)).isCloseTo(2.5 / 3, EXACT);
        // Communicating, but not what was asked for: the requested action wins over the command's prefix.
        assertThat(other("SUGGEST_COMM", "DIRECT_ANSWER", askedForRequire)).isCloseTo(1.1 / 3, EXACT);
        // The user overrode communication with a direct answer.
        Signal askedForAnswer = override("e2", 5, "DIRECT_ANSWER", null);
        assertThat(other("DIRECT_ANSWER", "REQUIRE_COMM", askedForAnswer)).isCloseTo(2.5 / 3, EXACT);
        assertThat(other("SUGGEST_COMM", "REQUIRE_COMM", askedForAnswer)).isCloseTo(1.1 / 3, EXACT);
    }

    @Test
    void user_followup_override_that_says_nothing_about_what_was_wanted_gives_the_lower_target() {
        // (0.5 + 2*0.3) / 3 for every other action
        assertThat(other("REQUIRE_COMM", "DIRECT_ANSWER", override("e1", 5, null, "retry please")))
                .isCloseTo(1.1 / 3, EXACT);
        assertThat(other("REQUIRE_COMM", "DIRECT_ANSWER", override("e1", 5, null, null))).isCloseTo(1.1 / 3, EXACT);
    }

    @Test
    void delayed_comm_request() {
        // active: (0.5 + 1*0.3) / 2 = 0.4; communicating other: (0.5 + 0.8) / 2 = 0.65; silent other: (0.5 + 0.4) / 2 = 0.45
        Signal delayed = signal("e1", SignalType.DELAYED_COMM_REQUEST, 600);
        assertThat(active("DIRECT_ANSWER", delayed)).isCloseTo(0.4, EXACT);
        assertThat(other("SUGGEST_COMM", "DIRECT_ANSWER", delayed)).isCloseTo(0.65, EXACT);
        assertThat(other("LOCAL_SEARCH", "DIRECT_ANSWER", delayed)).isCloseTo(0.45, EXACT);
    }

    @Test
    void reask_same_question() {
        // active: (0.5 + 1.5*0.1) / 2.5 = 0.26; other: (0.5 + 1*0.6) / 2 = 0.55
        Signal reask = signal("e1", SignalType.REASK_SAME_QUESTION, 60);
        assertThat(active("DIRECT_ANSWER", reask)).isCloseTo(0.26, EXACT);
        assertThat(other("REQUIRE_COMM", "DIRECT_ANSWER", reask)).isCloseTo(0.55, EXACT);
    }

    @Test
    void phase_violation_about_communication_is_avoided_only_by_not_communicating() {
        // active: (0.5 + 3*0.0) / 4 = 0.125; avoids: (0.5 + 3*1.0) / 4 = 0.875; repeats it: 0.125
        Signal commInPlanning = violation("e1", 2, "comm_in_planning_phase");
        assertThat(active("REQUIRE_COMM", commInPlanning)).isCloseTo(0.125, EXACT);
        assertThat(other("DIRECT_ANSWER", "REQUIRE_COMM", commInPlanning)).isCloseTo(0.875, EXACT);
        assertThat(other("SUGGEST_COMM", "REQUIRE_COMM", commInPlanning)).isCloseTo(0.125, EXACT);
        assertThat(other("SUGGEST_COMM", "REQUIRE_COMM", violation("e2", 2, "COMM_IN_PLANNING")))
                .isCloseTo(0.125, EXACT);
    }

    @Test
    void phase_violation_about_something_else_is_avoided_by_any_other_action() {
        Signal toolInReview = violation("e1", 2, "tool_in_review_phase");
        assertThat(active("DIRECT_ANSWER", toolInReview)).isCloseTo(0.125, EXACT);
        assertThat(other("SUGGEST_COMM", "DIRECT_ANSWER", toolInReview)).isCloseTo(0.875, EXACT);
        assertThat(other("LOCAL_SEARCH", "DIRECT_ANSWER", violation("e2", 2, null))).isCloseTo(0.875, EXACT);
    }

    @Test
    void abandoned_response() {
        // active: (0.5 + 1*0.3) / 2 = 0.4; other: (0.5 + 0.5*0.5) / 1.5 = 0.5
        Signal abandoned = signal("e1", SignalType.ABANDONED_RESPONSE, 10);
        assertThat(active("DIRECT_ANSWER", abandoned)).isCloseTo(0.4, EXACT);
        assertThat(other("REQUIRE_COMM", "DIRECT_ANSWER", abandoned)).isCloseTo(0.5, EXACT);
    }

    @Test
    void the_user_wanted_communication_three_ways() {
        Signal[] signals = {
                override("e1", 5, null, "/comm search Python latest version"),
                signal("e2", SignalType.DELAYED_COMM_REQUEST, 300),
                signal("e3", SignalType.ABANDONED_RESPONSE, 900)};
        // active: (0.5 + 2*0 + 1*0.3 + 1*0.3) / (1 + 2 + 1 + 1) = 1.1 / 5 = 0.22
        assertThat(active("DIRECT_ANSWER", signals)).isCloseTo(0.22, EXACT);
        // communicating: (0.5 + 2*1 + 1*0.8 + 0.5*0.5) / (1 + 2 + 1 + 0.5) = 3.55 / 4.5 = 0.7888...
        assertThat(other("REQUIRE_COMM", "DIRECT_ANSWER", signals)).isCloseTo(3.55 / 4.5, EXACT);
        // neither: (0.5 + 2*0.3 + 1*0.4 + 0.5*0.5) / 4.5 = 1.75 / 4.5 = 0.3888...
        assertThat(other("LOCAL_SEARCH", "DIRECT_ANSWER", signals)).isCloseTo(1.75 / 4.5, EXACT);
    }

    @Test
    void a_happy_user() {
        Signal[] signals = {signal("e1", SignalType.SMOOTH_COMPLETION, 30), feedback("e2", 40, true)};
        // active: (0.5 + 1*1 + 3*1) / (1 + 1 + 3) = 4.5 / 5 = 0.9; other: (0.5 + 0.5*0.5 + 1*0.5) / 2.5 = 0.5
        assertThat(active("DIRECT_ANSWER", signals)).isCloseTo(0.9, EXACT);
        assertThat(other("REQUIRE_COMM", "DIRECT_ANSWER", signals)).isCloseTo(0.5, EXACT);
    }

    @Test
    void an_unhappy_user_asking_twice_then_thumbing_down() {
        Signal[] signals = {
                signal("e1", SignalType.REASK_SAME_QUESTION, 60),
                signal("e2", SignalType.REASK_SAME_QUESTION, 120),
                feedback("e3", 130, false)};
        // active: (0.5 + 1.5*0.1 + 1.5*0.1 + 3*0) / (1 + 1.5 + 1.5 + 3) = 0.8 / 7 = 0.1142...
        assertThat(active("DIRECT_ANSWER", signals)).isCloseTo(0.8 / 7, EXACT);
        // other: (0.5 + 0.6 + 0.6 + 0.8) / (1 + 1 + 1 + 1) = 2.5 / 4 = 0.625
        assertThat(other("REQUIRE_COMM", "DIRECT_ANSWER", signals)).isCloseTo(0.625, EXACT);
    }

    @Test
    void a_phase_violation_then_the_user_carried_on() {
        Signal[] signals = {violation("e1", 2, "comm_in_planning_phase"), signal("e2", SignalType.SMOOTH_COMPLETION, 60)};
        // active: (0.5 + 3*0 + 1*1) / (1 + 3 + 1) = 0.3; avoiding other: (0.5 + 3*1 + 0.5*0.5) / (1 + 3 + 0.5) = 3.75 / 4.5
        assertThat(active("REQUIRE_COMM", signals)).isCloseTo(0.3, EXACT);
        assertThat(other("DIRECT_ANSWER", "REQUIRE_COMM", signals)).isCloseTo(3.75 / 4.5, EXACT);
    }

    @Test
    void a_shadow_that_chose_the_active_action_is_scored_as_the_active_one() {
        Signal down = feedback("e1", 30, false);
        assertThat(alignment.score(decision("v2.0-gamma", "DIRECT_ANSWER"), "DIRECT_ANSWER", List.of(down)))
                .isCloseTo(0.125, EXACT);
    }

    @Test
    void a_heavier_prior_pulls_towards_one_half() {
        AlignmentWeights defaults = AlignmentWeights.defaults();
        AlignmentWeights heavy = new AlignmentWeights(4.0, defaults.smoothCompletion(), defaults.explicitFeedbackUp(),
                defaults.explicitFeedbackDown(), defaults.userFollowupOverride(), defaults.delayedCommRequest(),
                defaults.reaskSameQuestion(), defaults.phaseViolation(), defaults.abandonedResponse());
        // (4*0.5 + 1*1.0) / (4 + 1) = 0.6
        assertThat(new RealityAlignment(heavy).score(decision("v1", "DIRECT_ANSWER"), "DIRECT_ANSWER",
                List.of(signal("e1", SignalType.SMOOTH_COMPLETION, 30)))).isCloseTo(0.6, EXACT);
        assertThat(heavy.method()).isEqualTo("reality_alignment.v1");
    }

    @Test
    void weights_that_could_leave_the_unit_interval_are_refused() {
        assertThatThrownBy(() -> new AlignmentWeights.Rule(1.2, 1, 0.5, 0.5, 1))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new AlignmentWeights.Rule(1.0, -1, 0.5, 0.5, 1))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> AlignmentWeights.Rule.of(1.0, 1, Double.NaN, 1))
                .isInstanceOf(IllegalArgumentException.class);
        AlignmentWeights d = AlignmentWeights.defaults();
        assertThatThrownBy(() -> new AlignmentWeights(0.0, d.smoothCompletion(), d.explicitFeedbackUp(),
                d.explicitFeedbackDown(), d.userFollowupOverride(), d.delayedCommRequest(), d.reaskSameQuestion(),
                d.phaseViolation(), d.abandonedResponse())).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void the_defaults_are_the_architecture_table() {
        AlignmentWeights d = AlignmentWeights.defaults();
        assertThat(d.prior()).isEqualTo(1.0);
        assertThat(d.smoothCompletion()).isEqualTo(new AlignmentWeights.Rule(1.0, 1, 0.5, 0.5, 0.5));
        assertThat(d.explicitFeedbackUp()).isEqualTo(new AlignmentWeights.Rule(1.0, 3, 0.5, 0.5, 1));
        assertThat(d.explicitFeedbackDown()).isEqualTo(new AlignmentWeights.Rule(0.0, 3, 0.8, 0.8, 1));
        assertThat(d.userFollowupOverride()).isEqualTo(new AlignmentWeights.Rule(0.0, 2, 1.0, 0.3, 2));
        assertThat(d.delayedCommRequest()).isEqualTo(new AlignmentWeights.Rule(0.3, 1, 0.8, 0.4, 1));
        assertThat(d.reaskSameQuestion()).isEqualTo(new AlignmentWeights.Rule(0.1, 1.5, 0.6, 0.6, 1));
        assertThat(d.phaseViolation()).isEqualTo(new AlignmentWeights.Rule(0.0, 3, 1.0, 0.0, 3));
        assertThat(d.abandonedResponse()).isEqualTo(new AlignmentWeights.Rule(0.3, 1, 0.5, 0.5, 0.5));
        assertThat(d.method()).isEqualTo("reality_alignment.v1");
    }

    @Test
    void communication_actions_are_those_with_the_word_comm() {
        assertThat(RealityAlignment.isCommunication("REQUIRE_COMM")).isTrue();
        assertThat(RealityAlignment.isCommunication("SUGGEST_COMM")).isTrue();
        assertThat(RealityAlignment.isCommunication("comm_first")).isTrue();
        assertThat(RealityAlignment.isCommunication("REQUIRE_COMMUNICATION")).isTrue();
        assertThat(RealityAlignment.isCommunication("DIRECT_ANSWER")).isFalse();
        assertThat(RealityAlignment.isCommunication("RECOMMEND_SOURCE")).isFalse();
        assertThat(RealityAlignment.isCommunication("COMMIT_PLAN")).isFalse();
        assertThat(RealityAlignment.isCommunication(null)).isFalse();
    }

    @Test
    void round4_rounds_half_up_to_four_decimals() {
        assertThat(RealityAlignment.round4(0.5 / 3)).isEqualTo(0.1667);
        assertThat(RealityAlignment.round4(2.5 / 3)).isEqualTo(0.8333);
        assertThat(RealityAlignment.round4(0.12345)).isEqualTo(0.1235);
        assertThat(RealityAlignment.round4(0.8 - 0.4)).isEqualTo(0.4);
        assertThat(RealityAlignment.round4(1.0)).isEqualTo(1.0);
        assertThat(RealityAlignment.round4(0.0)).isEqualTo(0.0);
    }
}
