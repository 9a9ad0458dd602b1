package dev.hindsight.evaluation.shadow;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The signal type names on the wire, and which of them end an interaction. */
class SignalTypeTest {

    @Test
    void wire_names_are_the_seeds() {
        assertThat(SignalType.values()).extracting(SignalType::wireName).containsExactly(
                "smooth_completion", "user_followup_override", "delayed_comm_request", "reask_same_question",
                "phase_violation", "abandoned_response", "explicit_feedback");
    }

    @Test
    void completion_feedback_and_abandonment_are_terminal() {
        assertThat(SignalType.values()).filteredOn(SignalType::terminal).containsExactlyInAnyOrder(
                SignalType.SMOOTH_COMPLETION, SignalType.EXPLICIT_FEEDBACK, SignalType.ABANDONED_RESPONSE);
    }

    @Test
    void wire_names_read_back_and_unknown_ones_are_empty() {
        for (SignalType type : SignalType.values()) {
            assertThat(SignalType.fromWireName(type.wireName())).contains(type);
        }
        assertThat(SignalType.fromWireName("SMOOTH_COMPLETION")).isEmpty();
        assertThat(SignalType.fromWireName("copy_to_clipboard")).isEmpty();
        assertThat(SignalType.fromWireName(null)).isEmpty();
    }
}
