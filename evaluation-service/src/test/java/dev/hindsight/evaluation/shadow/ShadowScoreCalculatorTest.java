package dev.hindsight.evaluation.shadow;

import static dev.hindsight.evaluation.shadow.Given.T0;
import static dev.hindsight.evaluation.shadow.Given.decision;
import static dev.hindsight.evaluation.shadow.Given.decisionSet;
import static dev.hindsight.evaluation.shadow.Given.feedback;
import static dev.hindsight.evaluation.shadow.Given.override;
import static dev.hindsight.evaluation.shadow.Given.seedDecisionSet;
import static dev.hindsight.evaluation.shadow.Given.signal;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import dev.hindsight.platform.tenant.TenantId;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Given a decision set and the signals on its message, then the evaluation revision the calculator publishes. */
class ShadowScoreCalculatorTest {

    private final ShadowScoreCalculator calculator = new ShadowScoreCalculator(AlignmentWeights.defaults());

    @Test
    void seed_002_the_user_asked_for_communication_so_both_shadows_outscore_the_direct_answer() {
        Signal comm = override("sig-1", 5, null, "/comm search Python latest version");

        ShadowEvaluation evaluation = calculator.evaluate(seedDecisionSet(), List.of(comm), 1, Trigger.WINDOW_CLOSED);

        // active DIRECT_ANSWER: (1*0.5 + 2*0.0) / (1 + 2) = 0.1667
        assertThat(evaluation.activeScore()).isEqualTo(0.1667);
        // REQUIRE_COMM and SUGGEST_COMM both did what "/comm" asked for: (1*0.5 + 2*1.0) / (1 + 2) = 0.8333
        assertThat(evaluation.shadowScores()).containsExactly(entry("v2.0-alpha", 0.8333), entry("v2.0-beta", 0.8333));
        assertThat(evaluation.signalsUsed()).containsExactly("user_followup_override");
        assertThat(evaluation.evaluationMethod()).isEqualTo("reality_alignment.v1");
        assertThat(evaluation.evaluationId()).isEqualTo("3aee7705-bd71-3d60-b0d3-b92c26096aed");
        assertThat(evaluation.decisionSetId()).isEqualTo("ds-abc123");
        assertThat(evaluation.messageId()).isEqualTo("msg-456");
        assertThat(evaluation.sessionId()).isEqualTo("session-789");
        assertThat(evaluation.activeVersion()).isEqualTo("v1.0.0");
        assertThat(evaluation.revision()).isEqualTo(1);
        assertThat(evaluation.trigger()).isEqualTo(Trigger.WINDOW_CLOSED);
        assertThat(evaluation.evaluatedAt()).isEqualTo(T0.plusSeconds(5));
    }

    @Test
    void seed_002_then_a_late_delayed_comm_request_makes_revision_2() {
        List<Signal> signals = List.of(
                override("sig-1", 5, null, "/comm search Python latest version"),
                signal("sig-2", SignalType.DELAYED_COMM_REQUEST, 2400));

        ShadowEvaluation evaluation = calculator.evaluate(seedDecisionSet(), signals, 2, Trigger.LATE_SIGNAL);

        // active: (0.5 + 2*0 + 1*0.3) / (1 + 2 + 1) = 0.2; shadows: (0.5 + 2*1 + 1*0.8) / 4 = 0.825
        assertThat(evaluation.activeScore()).isEqualTo(0.2);
        assertThat(evaluation.shadowScores()).containsExactly(entry("v2.0-alpha", 0.825), entry("v2.0-beta", 0.825));
        assertThat(evaluation.signalsUsed()).containsExactly("user_followup_override", "delayed_comm_request");
        assertThat(evaluation.evaluationId()).isEqualTo("769e8cda-dc50-3efb-8614-08a8c6fe6433");
        assertThat(evaluation.trigger()).isEqualTo(Trigger.LATE_SIGNAL);
        assertThat(evaluation.evaluatedAt()).isEqualTo(T0.plusSeconds(2400));
    }

    @Test
    void no_signals_score_every_decision_one_half_at_the_decision_time() {
        ShadowEvaluation evaluation = calculator.evaluate(seedDecisionSet(), List.of(), 1, Trigger.WINDOW_CLOSED);

        assertThat(evaluation.activeScore()).isEqualTo(0.5);
        assertThat(evaluation.shadowScores()).containsExactly(entry("v2.0-alpha", 0.5), entry("v2.0-beta", 0.5));
        assertThat(evaluation.signalsUsed()).isEmpty();
        assertThat(evaluation.evaluatedAt()).isEqualTo(T0);
    }

    @Test
    void shadow_scores_keep_the_decision_sets_shadow_order() {
        DecisionSet set = decisionSet("DIRECT_ANSWER",
                decision("v9", "REQUIRE_COMM"), decision("v1.5", "DIRECT_ANSWER"), decision("v3", "LOCAL_SEARCH"));
        Signal up = feedback("e1", 30, true);

        ShadowEvaluation evaluation = calculator.evaluate(set, List.of(up), 1, Trigger.TERMINAL_SIGNAL);

        // active and v1.5 (same action): (0.5 + 3*1) / 4 = 0.875; the others: (0.5 + 1*0.5) / 2 = 0.5
        assertThat(evaluation.activeScore()).isEqualTo(0.875);
        assertThat(evaluation.shadowScores()).containsExactly(
                entry("v9", 0.5), entry("v1.5", 0.875), entry("v3", 0.5));
    }

    @Test
    void a_set_without_shadows_still_scores_the_active_decision() {
        ShadowEvaluation evaluation = calculator.evaluate(decisionSet("DIRECT_ANSWER"),
                List.of(signal("e1", SignalType.SMOOTH_COMPLETION, 30)), 1, Trigger.TERMINAL_SIGNAL);

        assertThat(evaluation.activeScore()).isEqualTo(0.75);
        assertThat(evaluation.shadowScores()).isEmpty();
    }

    @Test
    void signals_are_read_in_event_time_then_event_id_order() {
        List<Signal> arrivalOrder = List.of(
                signal("e3", SignalType.SMOOTH_COMPLETION, 60),
                override("e2", 5, null, "/comm x"),
                signal("e1", SignalType.DELAYED_COMM_REQUEST, 5));

        ShadowEvaluation evaluation = calculator.evaluate(seedDecisionSet(), arrivalOrder, 1, Trigger.TERMINAL_SIGNAL);

        // e1 and e2 occurred at the same instant: the event id breaks the tie.
        assertThat(evaluation.signalsUsed())
                .containsExactly("delayed_comm_request", "user_followup_override", "smooth_completion");
        assertThat(evaluation.evaluatedAt()).isEqualTo(T0.plusSeconds(60));
    }

    @Test
    void signals_used_lists_each_type_once_in_order_of_first_occurrence() {
        List<Signal> signals = List.of(
                signal("e1", SignalType.REASK_SAME_QUESTION, 60),
                signal("e2", SignalType.SMOOTH_COMPLETION, 90),
                signal("e3", SignalType.REASK_SAME_QUESTION, 120));

        ShadowEvaluation evaluation = calculator.evaluate(seedDecisionSet(), signals, 1, Trigger.TERMINAL_SIGNAL);

        assertThat(evaluation.signalsUsed()).containsExactly("reask_same_question", "smooth_completion");
        // Both re-asks count: active (0.5 + 0.15 + 1 + 0.15) / (1 + 1.5 + 1 + 1.5) = 1.8 / 5 = 0.36
        assertThat(evaluation.activeScore()).isEqualTo(0.36);
    }

    @Test
    void a_redelivered_signal_counts_once() {
        Signal down = feedback("e1", 30, false);

        ShadowEvaluation once = calculator.evaluate(seedDecisionSet(), List.of(down), 1, Trigger.TERMINAL_SIGNAL);
        ShadowEvaluation twice = calculator.evaluate(seedDecisionSet(), List.of(down, down), 1, Trigger.TERMINAL_SIGNAL);

        // (0.5 + 3*0) / 4 = 0.125, not (0.5 + 0 + 0) / 7
        assertThat(twice).isEqualTo(once);
        assertThat(twice.activeScore()).isEqualTo(0.125);
    }

    @Test
    void feedback_without_a_thumb_is_neither_scored_nor_listed_nor_dated() {
        List<Signal> signals = List.of(signal("e1", SignalType.SMOOTH_COMPLETION, 30), feedback("e2", 900, null));

        ShadowEvaluation evaluation = calculator.evaluate(seedDecisionSet(), signals, 1, Trigger.TERMINAL_SIGNAL);

        assertThat(evaluation.activeScore()).isEqualTo(0.75);
        assertThat(evaluation.signalsUsed()).containsExactly("smooth_completion");
        assertThat(evaluation.evaluatedAt()).isEqualTo(T0.plusSeconds(30));
    }

    @Test
    void a_signal_stamped_before_the_decision_does_not_move_the_evaluation_before_it() {
        ShadowEvaluation evaluation = calculator.evaluate(seedDecisionSet(),
                List.of(signal("e1", SignalType.SMOOTH_COMPLETION, -3)), 1, Trigger.TERMINAL_SIGNAL);

        assertThat(evaluation.evaluatedAt()).isEqualTo(T0);
        assertThat(evaluation.activeScore()).isEqualTo(0.75);
    }

    @Test
    void the_same_inputs_in_any_order_give_the_same_evaluation_and_id() {
        List<Signal> signals = new ArrayList<>(List.of(
                override("e1", 5, null, "/comm x"),
                signal("e2", SignalType.REASK_SAME_QUESTION, 60),
                signal("e3", SignalType.DELAYED_COMM_REQUEST, 60),
                feedback("e4", 100, true),
                signal("e5", SignalType.ABANDONED_RESPONSE, 100)));
        ShadowEvaluation first = calculator.evaluate(seedDecisionSet(), signals, 3, Trigger.LATE_SIGNAL);

        Random random = new Random(2);
        for (int i = 0; i < 20; i++) {
            Collections.shuffle(signals, random);
            assertThat(new ShadowScoreCalculator(AlignmentWeights.defaults())
                    .evaluate(seedDecisionSet(), signals, 3, Trigger.LATE_SIGNAL)).isEqualTo(first);
        }
    }

    @Test
    void evaluation_ids_differ_by_revision_and_tenant() {
        DecisionSet acme = seedDecisionSet();
        DecisionSet other = new DecisionSet(TenantId.of("globex"), acme.decisionSetId(), acme.messageId(),
                acme.sessionId(), acme.activeVersion(), acme.active(), acme.shadows(), acme.decidedAt());

        String acme1 = calculator.evaluate(acme, List.of(), 1, Trigger.WINDOW_CLOSED).evaluationId();
        String acme2 = calculator.evaluate(acme, List.of(), 2, Trigger.LATE_SIGNAL).evaluationId();
        String globex1 = calculator.evaluate(other, List.of(), 1, Trigger.WINDOW_CLOSED).evaluationId();

        assertThat(List.of(acme1, acme2, globex1)).doesNotHaveDuplicates();
        // The trigger is not part of the id: revision 1 is revision 1, however it came about.
        assertThat(calculator.evaluate(acme, List.of(), 1, Trigger.TERMINAL_SIGNAL).evaluationId()).isEqualTo(acme1);
    }

    @Test
    void revisions_start_at_one() {
        assertThatThrownBy(() -> calculator.evaluate(seedDecisionSet(), List.of(), 0, Trigger.WINDOW_CLOSED))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void the_evaluation_cannot_be_changed_afterwards() {
        ShadowEvaluation evaluation = calculator.evaluate(seedDecisionSet(), List.of(), 1, Trigger.WINDOW_CLOSED);

        assertThatThrownBy(() -> evaluation.shadowScores().put("v9", 1.0))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> evaluation.signalsUsed().add("x")).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void shadow_versions_must_be_present_and_distinct() {
        assertThatThrownBy(() -> decisionSet("DIRECT_ANSWER", decision("v2", "REQUIRE_COMM"),
                decision("v2", "SUGGEST_COMM"))).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("v2");
        assertThatThrownBy(() -> decisionSet("DIRECT_ANSWER", decision(null, "REQUIRE_COMM")))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
