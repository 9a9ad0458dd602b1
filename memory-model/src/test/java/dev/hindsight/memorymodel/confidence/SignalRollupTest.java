package dev.hindsight.memorymodel.confidence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Given a memory's individual signals and aggregate, when the daily rollup runs, then what moves and what stays. */
class SignalRollupTest {

    private static final Instant NOW = Instant.parse("2026-03-01T00:00:00Z");
    private static final int CASES = 1000;

    @Test
    void signals_older_than_thirty_days_move_into_the_aggregate() {
        RecordedSignal old = RecordedSignal.explicit(true, NOW.minus(Duration.ofDays(31)));
        RecordedSignal oldUsage = RecordedSignal.usage(NOW.minus(Duration.ofDays(45)));
        RecordedSignal recent = RecordedSignal.outcome(false, NOW.minus(Duration.ofDays(2)));

        SignalRollup.Result result = SignalRollup.rollup(List.of(old, recent, oldUsage),
                new SignalCounts(1, 1, 1, 1, 1), NOW);

        assertThat(result.kept()).containsExactly(recent);
        assertThat(result.rolledUp()).containsExactly(old, oldUsage);
        assertThat(result.aggregate()).isEqualTo(new SignalCounts(2, 1, 2, 1, 1));
        assertThat(result.changed()).isTrue();
    }

    @Test
    void a_signal_exactly_at_the_cutoff_stays_individual() {
        RecordedSignal atCutoff = RecordedSignal.usage(NOW.minus(SignalRollup.DEFAULT_RETENTION));
        RecordedSignal justBefore = RecordedSignal.usage(NOW.minus(SignalRollup.DEFAULT_RETENTION).minusNanos(1));

        SignalRollup.Result result = SignalRollup.rollup(List.of(atCutoff, justBefore), SignalCounts.ZERO, NOW);

        assertThat(result.kept()).containsExactly(atCutoff);
        assertThat(result.rolledUp()).containsExactly(justBefore);
    }

    @Test
    void nothing_to_roll_up_leaves_everything_as_it_was() {
        List<RecordedSignal> recent = List.of(RecordedSignal.usage(NOW), RecordedSignal.explicit(false, NOW));
        SignalCounts aggregate = new SignalCounts(3, 0, 9, 0, 0);

        SignalRollup.Result result = SignalRollup.rollup(recent, aggregate, NOW);

        assertThat(result.kept()).isEqualTo(recent);
        assertThat(result.aggregate()).isEqualTo(aggregate);
        assertThat(result.changed()).isFalse();
        assertThat(SignalRollup.rollup(List.of(), SignalCounts.ZERO, NOW).aggregate()).isEqualTo(SignalCounts.ZERO);
    }

    @Test
    void zero_retention_rolls_up_everything_before_now_and_a_huge_one_keeps_everything() {
        RecordedSignal past = RecordedSignal.usage(NOW.minusSeconds(1));
        RecordedSignal ancient = RecordedSignal.usage(Instant.parse("1970-01-01T00:00:00Z"));

        assertThat(SignalRollup.rollup(List.of(past), SignalCounts.ZERO, NOW, Duration.ZERO).kept()).isEmpty();
        assertThat(SignalRollup.rollup(List.of(ancient), SignalCounts.ZERO, NOW,
                Duration.ofSeconds(Long.MAX_VALUE)).kept()).containsExactly(ancient);
        assertThat(SignalRollup.cutoff(NOW, Duration.ofSeconds(Long.MAX_VALUE))).isEqualTo(Instant.MIN);
    }

    @Test
    void a_negative_retention_is_refused() {
        assertThatThrownBy(() -> SignalRollup.rollup(List.of(), SignalCounts.ZERO, NOW, Duration.ofDays(-1)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void confidence_is_identical_before_and_after_any_rollup() {
        Random random = new Random(20260106);
        for (int i = 0; i < CASES; i++) {
            List<RecordedSignal> signals = randomHistory(random);
            SignalCounts aggregate = ConfidenceModelTest.randomCounts(random);
            ProjectWeights weights = ConfidenceModelTest.randomWeights(random);
            MemoryOrigin origin = random.nextBoolean() ? MemoryOrigin.EXPLICIT : MemoryOrigin.DISTILLED;
            Duration retention = Duration.ofHours(random.nextInt(24 * 90));
            double before = ConfidenceModel.confidence(origin, aggregate, signals, weights);

            SignalRollup.Result result = SignalRollup.rollup(signals, aggregate, NOW, retention);

            assertThat(ConfidenceModel.confidence(origin, result.aggregate(), result.kept(), weights))
                    .as("case %d", i).isEqualTo(before);
            assertThat(SignalRollup.total(result.aggregate(), result.kept()))
                    .isEqualTo(SignalRollup.total(aggregate, signals));
            assertThat(result.kept().size() + result.rolledUp().size()).isEqualTo(signals.size());
            assertThat(result.kept()).allSatisfy(
                    signal -> assertThat(signal.at()).isAfterOrEqualTo(NOW.minus(retention)));
            assertThat(result.rolledUp()).allSatisfy(
                    signal -> assertThat(signal.at()).isBefore(NOW.minus(retention)));
        }
    }

    @Test
    void confidence_from_counts_matches_adding_each_signal_one_by_one() {
        Random random = new Random(31);
        for (int i = 0; i < CASES; i++) {
            List<RecordedSignal> signals = randomHistory(random);
            ProjectWeights weights = ConfidenceModelTest.randomWeights(random);
            Beta oneByOne = MemoryOrigin.EXPLICIT.prior();
            for (RecordedSignal signal : signals) {
                double weight = weights.weight(signal.kind());
                oneByOne = signal.positive() ? oneByOne.plus(weight, 0) : oneByOne.plus(0, weight);
            }

            assertThat(ConfidenceModel.confidence(MemoryOrigin.EXPLICIT, SignalCounts.ZERO, signals, weights))
                    .as("case %d", i).isCloseTo(oneByOne.mean(), within(1e-9));
        }
    }

    @Test
    void rolling_up_daily_equals_rolling_up_once_and_a_repeated_rollup_changes_nothing() {
        Random random = new Random(5);
        for (int i = 0; i < CASES; i++) {
            List<RecordedSignal> signals = randomHistory(random);
            Instant later = NOW.plus(Duration.ofDays(random.nextInt(10)));

            SignalRollup.Result first = SignalRollup.rollup(signals, SignalCounts.ZERO, NOW);
            SignalRollup.Result daily = SignalRollup.rollup(first.kept(), first.aggregate(), later);
            SignalRollup.Result once = SignalRollup.rollup(signals, SignalCounts.ZERO, later);
            SignalRollup.Result again = SignalRollup.rollup(once.kept(), once.aggregate(), later);

            assertThat(daily.aggregate()).as("case %d", i).isEqualTo(once.aggregate());
            assertThat(daily.kept()).isEqualTo(once.kept());
            assertThat(again.changed()).isFalse();
            assertThat(again.aggregate()).isEqualTo(once.aggregate());
        }
    }

    private static List<RecordedSignal> randomHistory(Random random) {
        List<RecordedSignal> signals = new ArrayList<>();
        for (int i = 0, n = random.nextInt(40); i < n; i++) {
            Instant at = NOW.minus(Duration.ofMinutes(random.nextInt(60 * 24 * 120)));
            signals.add(switch (random.nextInt(3)) {
                case 0 -> RecordedSignal.explicit(random.nextBoolean(), at);
                case 1 -> RecordedSignal.usage(at);
                default -> RecordedSignal.outcome(random.nextBoolean(), at);
            });
        }
        return signals;
    }
}
