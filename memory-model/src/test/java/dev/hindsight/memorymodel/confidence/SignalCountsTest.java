package dev.hindsight.memorymodel.confidence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SignalCountsTest {

    private static final Instant T0 = Instant.parse("2026-01-06T10:00:00Z");

    @Test
    void counts_each_kind_and_direction() {
        List<RecordedSignal> signals = List.of(
                RecordedSignal.explicit(true, T0), RecordedSignal.explicit(true, T0), RecordedSignal.explicit(false, T0),
                RecordedSignal.usage(T0), RecordedSignal.usage(T0), RecordedSignal.usage(T0),
                RecordedSignal.outcome(true, T0), RecordedSignal.outcome(false, T0), RecordedSignal.outcome(false, T0));

        assertThat(SignalCounts.of(signals)).isEqualTo(new SignalCounts(2, 1, 3, 1, 2));
        assertThat(SignalCounts.of(signals).total()).isEqualTo(9);
    }

    @Test
    void no_signals_count_as_zero() {
        assertThat(SignalCounts.of(List.of())).isEqualTo(SignalCounts.ZERO);
        assertThat(SignalCounts.ZERO.total()).isZero();
    }

    @Test
    void a_usage_signal_is_always_positive_even_when_read_as_negative() {
        RecordedSignal careless = new RecordedSignal(SignalKind.USAGE, false, T0);

        assertThat(careless.positive()).isTrue();
        assertThat(SignalCounts.of(List.of(careless))).isEqualTo(new SignalCounts(0, 0, 1, 0, 0));
        assertThat(SignalCounts.of(List.of(careless)).negatives(SignalKind.USAGE)).isZero();
    }

    @Test
    void adding_one_signal_at_a_time_equals_counting_them_all() {
        List<RecordedSignal> signals = List.of(RecordedSignal.explicit(false, T0), RecordedSignal.usage(T0),
                RecordedSignal.outcome(true, T0), RecordedSignal.outcome(false, T0), RecordedSignal.explicit(true, T0));
        SignalCounts folded = SignalCounts.ZERO;
        for (RecordedSignal signal : signals) {
            folded = folded.plus(signal);
        }

        assertThat(folded).isEqualTo(SignalCounts.of(signals));
    }

    @Test
    void plus_adds_field_by_field() {
        SignalCounts sum = new SignalCounts(1, 2, 3, 4, 5).plus(new SignalCounts(10, 20, 30, 40, 50));

        assertThat(sum).isEqualTo(new SignalCounts(11, 22, 33, 44, 55));
        assertThat(sum.positives(SignalKind.EXPLICIT)).isEqualTo(11);
        assertThat(sum.negatives(SignalKind.EXPLICIT)).isEqualTo(22);
        assertThat(sum.positives(SignalKind.USAGE)).isEqualTo(33);
        assertThat(sum.positives(SignalKind.OUTCOME)).isEqualTo(44);
        assertThat(sum.negatives(SignalKind.OUTCOME)).isEqualTo(55);
    }

    @Test
    void an_overflowing_count_fails_instead_of_wrapping_negative() {
        SignalCounts huge = new SignalCounts(0, 0, Long.MAX_VALUE, 0, 0);

        assertThatThrownBy(() -> huge.plus(new SignalCounts(0, 0, 1, 0, 0))).isInstanceOf(ArithmeticException.class);
        assertThatThrownBy(() -> huge.plus(RecordedSignal.usage(T0))).isInstanceOf(ArithmeticException.class);
    }

    @Test
    void negative_counts_are_refused() {
        assertThatThrownBy(() -> new SignalCounts(-1, 0, 0, 0, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("explicitPositive");
        assertThatThrownBy(() -> new SignalCounts(0, -1, 0, 0, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("explicitNegative");
        assertThatThrownBy(() -> new SignalCounts(0, 0, -1, 0, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("usage");
        assertThatThrownBy(() -> new SignalCounts(0, 0, 0, -1, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("outcomePositive");
        assertThatThrownBy(() -> new SignalCounts(0, 0, 0, 0, -1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("outcomeNegative");
    }

    @Test
    void null_signals_are_refused() {
        List<RecordedSignal> withNull = new ArrayList<>();
        withNull.add(null);

        assertThatThrownBy(() -> SignalCounts.of(withNull)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> new RecordedSignal(null, true, T0)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> new RecordedSignal(SignalKind.EXPLICIT, true, null))
                .isInstanceOf(NullPointerException.class);
    }

    @Test
    void usage_predicts_helpful_as_soon_as_the_memory_was_retrieved_once() {
        assertThat(SignalCounts.ZERO.prediction(SignalKind.USAGE)).isEqualTo(Prediction.NONE);
        assertThat(new SignalCounts(0, 0, 1, 0, 0).prediction(SignalKind.USAGE)).isEqualTo(Prediction.HELPFUL);
    }

    @Test
    void outcome_and_explicit_predict_by_majority_and_a_tie_predicts_nothing() {
        assertThat(new SignalCounts(0, 0, 0, 2, 1).prediction(SignalKind.OUTCOME)).isEqualTo(Prediction.HELPFUL);
        assertThat(new SignalCounts(0, 0, 0, 1, 2).prediction(SignalKind.OUTCOME)).isEqualTo(Prediction.UNHELPFUL);
        assertThat(new SignalCounts(0, 0, 0, 3, 3).prediction(SignalKind.OUTCOME)).isEqualTo(Prediction.NONE);
        assertThat(new SignalCounts(1, 0, 0, 0, 0).prediction(SignalKind.EXPLICIT)).isEqualTo(Prediction.HELPFUL);
        assertThat(new SignalCounts(0, 1, 0, 0, 0).prediction(SignalKind.EXPLICIT)).isEqualTo(Prediction.UNHELPFUL);
    }

    @Test
    void a_prediction_agrees_only_with_the_rating_it_predicted() {
        assertThat(Prediction.HELPFUL.agreesWith(true)).isTrue();
        assertThat(Prediction.HELPFUL.agreesWith(false)).isFalse();
        assertThat(Prediction.UNHELPFUL.agreesWith(false)).isTrue();
        assertThat(Prediction.UNHELPFUL.agreesWith(true)).isFalse();
        assertThat(Prediction.NONE.agreesWith(true)).isFalse();
        assertThat(Prediction.NONE.agreesWith(false)).isFalse();
    }

    @Test
    void wire_names_round_trip_and_unknown_names_fail() {
        for (SignalKind kind : SignalKind.values()) {
            assertThat(SignalKind.fromWireName(kind.wireName())).isEqualTo(kind);
        }
        assertThat(SignalKind.fromWireName(" Usage ")).isEqualTo(SignalKind.USAGE);
        assertThatThrownBy(() -> SignalKind.fromWireName("implicit")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SignalKind.fromWireName(null)).isInstanceOf(IllegalArgumentException.class);
        for (MemoryOrigin origin : MemoryOrigin.values()) {
            assertThat(MemoryOrigin.fromWireName(origin.wireName())).isEqualTo(origin);
        }
        assertThatThrownBy(() -> MemoryOrigin.fromWireName("imported")).isInstanceOf(IllegalArgumentException.class);
    }
}
