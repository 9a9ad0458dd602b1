package dev.hindsight.evaluation.shadow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Given the persisted state of a decision set and the clock, then whether (and why) an evaluation is due. */
class EvaluationWindowTest {

    private static final Instant DECIDED = Instant.parse("2025-01-31T10:30:00Z");

    private final EvaluationWindow window = EvaluationWindow.defaults();

    /** A live decision set: it arrived 100 ms after it was decided. */
    private static WindowState live(int signalCount, boolean hasTerminal) {
        return new WindowState(DECIDED, DECIDED.plusMillis(100), 0, 0, signalCount, hasTerminal);
    }

    @Test
    void the_window_closes_thirty_minutes_after_the_decision() {
        assertThat(window.windowEnd(DECIDED)).isEqualTo(Instant.parse("2025-01-31T11:00:00Z"));
        assertThat(window.window()).isEqualTo(Duration.ofMinutes(30));
        assertThat(window.settle()).isEqualTo(Duration.ofSeconds(5));
    }

    @Test
    void nothing_is_due_inside_the_window_without_a_terminal_signal() {
        assertThat(window.due(live(0, false), DECIDED.plusSeconds(1))).isEmpty();
        assertThat(window.due(live(2, false), DECIDED.plus(Duration.ofMinutes(10)))).isEmpty();
        assertThat(window.due(live(2, false), DECIDED.plus(Duration.ofMinutes(30)).minusMillis(1))).isEmpty();
    }

    @Test
    void the_closed_window_is_due_from_its_end_on() {
        assertThat(window.due(live(0, false), DECIDED.plus(Duration.ofMinutes(30)))).contains(Trigger.WINDOW_CLOSED);
        assertThat(window.due(live(3, false), DECIDED.plus(Duration.ofHours(5)))).contains(Trigger.WINDOW_CLOSED);
    }

    @Test
    void a_terminal_signal_is_due_at_once_even_inside_the_window() {
        assertThat(window.due(live(1, true), DECIDED.plusSeconds(1))).contains(Trigger.TERMINAL_SIGNAL);
        // Also within the settle time: a terminal signal says the user is done.
        assertThat(window.due(live(1, true), DECIDED.plusMillis(200))).contains(Trigger.TERMINAL_SIGNAL);
    }

    @Test
    void a_terminal_signal_wins_over_a_closed_window() {
        assertThat(window.due(live(4, true), DECIDED.plus(Duration.ofHours(1)))).contains(Trigger.TERMINAL_SIGNAL);
    }

    @Test
    void a_historical_decision_set_waits_for_the_settle_time_after_it_arrived() {
        // Decided last year, arriving now: the window closed long ago in event time.
        Instant arrived = Instant.parse("2026-03-01T08:00:00Z");
        WindowState historical = new WindowState(DECIDED, arrived, 0, 0, 0, false);

        assertThat(window.due(historical, arrived)).isEmpty();
        assertThat(window.due(historical, arrived.plusSeconds(4))).isEmpty();
        assertThat(window.due(historical, arrived.plusSeconds(5))).contains(Trigger.WINDOW_CLOSED);
    }

    @Test
    void signals_that_arrived_with_a_historical_set_are_in_its_first_revision() {
        Instant arrived = Instant.parse("2026-03-01T08:00:00Z");
        // The settle time let two non-terminal signals arrive; the first revision is due once, with both.
        WindowState settled = new WindowState(DECIDED, arrived, 0, 0, 2, false);

        assertThat(window.due(settled, arrived.plusSeconds(6))).contains(Trigger.WINDOW_CLOSED);
    }

    @Test
    void after_a_revision_only_new_signals_make_another_due() {
        WindowState published = new WindowState(DECIDED, DECIDED, 1, 2, 2, true);

        assertThat(window.due(published, DECIDED.plus(Duration.ofMinutes(31)))).isEmpty();
        assertThat(window.due(published, DECIDED.plus(Duration.ofDays(30)))).isEmpty();
    }

    @Test
    void a_late_signal_is_due_as_a_new_revision() {
        // Revision 1 was published at window close with 2 signals; a third arrived since.
        WindowState late = new WindowState(DECIDED, DECIDED, 1, 2, 3, false);
        assertThat(window.due(late, DECIDED.plus(Duration.ofMinutes(45)))).contains(Trigger.LATE_SIGNAL);

        // A terminal signal after the first revision is late too, not a second "first" revision.
        WindowState lateTerminal = new WindowState(DECIDED, DECIDED, 1, 0, 1, true);
        assertThat(window.due(lateTerminal, DECIDED.plus(Duration.ofMinutes(45)))).contains(Trigger.LATE_SIGNAL);

        // Even inside the window, when the first revision came from a terminal signal.
        WindowState afterTerminal = new WindowState(DECIDED, DECIDED, 2, 3, 4, true);
        assertThat(window.due(afterTerminal, DECIDED.plusSeconds(60))).contains(Trigger.LATE_SIGNAL);
    }

    @Test
    void a_configured_window_and_settle_time_are_honoured() {
        EvaluationWindow quick = new EvaluationWindow(Duration.ofSeconds(10), Duration.ZERO);
        WindowState state = new WindowState(DECIDED, DECIDED, 0, 0, 0, false);

        assertThat(quick.windowEnd(DECIDED)).isEqualTo(DECIDED.plusSeconds(10));
        assertThat(quick.due(state, DECIDED.plusSeconds(9))).isEmpty();
        assertThat(quick.due(state, DECIDED.plusSeconds(10))).contains(Trigger.WINDOW_CLOSED);
    }

    @Test
    void negative_durations_are_refused() {
        assertThatThrownBy(() -> new EvaluationWindow(Duration.ofMinutes(-1), Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new EvaluationWindow(Duration.ofMinutes(30), Duration.ofSeconds(-5)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void triggers_have_wire_names() {
        assertThat(Trigger.TERMINAL_SIGNAL.wireName()).isEqualTo("terminal_signal");
        assertThat(Trigger.WINDOW_CLOSED.wireName()).isEqualTo("window_closed");
        assertThat(Trigger.LATE_SIGNAL.wireName()).isEqualTo("late_signal");
    }
}
