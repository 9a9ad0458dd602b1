package dev.hindsight.memorymodel.confidence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Instant;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Given a memory's origin and signals, then its confidence, including the promises made by the prior strengths. */
class ConfidenceModelTest {

    private static final Instant T0 = Instant.parse("2026-01-06T10:00:00Z");
    private static final ProjectWeights PRIORS = ProjectWeights.PRIORS;

    @Test
    void seed_004_constants() {
        assertThat(ConfidenceModel.MIN_CONFIDENCE).isEqualTo(0.7);
        assertThat(ConfidenceModel.EXPLICIT_RECORD_CONFIDENCE).isEqualTo(0.8);
        assertThat(ConfidenceModel.DISTILLED_CONFIDENCE).isEqualTo(0.6);
        assertThat(ConfidenceModel.DEFAULT_SEARCH_LIMIT).isEqualTo(10);
    }

    @Test
    void a_fresh_memory_starts_at_its_origins_initial_confidence() {
        assertThat(ConfidenceModel.confidence(MemoryOrigin.EXPLICIT, SignalCounts.ZERO, PRIORS)).isEqualTo(0.8);
        assertThat(ConfidenceModel.confidence(MemoryOrigin.DISTILLED, SignalCounts.ZERO, PRIORS)).isEqualTo(0.6);
    }

    @Test
    void the_posterior_adds_each_kinds_weight_times_its_counts() {
        SignalCounts counts = new SignalCounts(2, 1, 4, 1, 3);

        Beta posterior = ConfidenceModel.posterior(MemoryOrigin.EXPLICIT, counts, PRIORS);

        // alpha = 4 + 0.7*2 + 0.5*4 + 0.5*1 = 7.9; beta = 1 + 0.7*1 + 0.5*3 = 3.2
        assertThat(posterior.alpha()).isCloseTo(7.9, within(1e-12));
        assertThat(posterior.beta()).isCloseTo(3.2, within(1e-12));
        assertThat(ConfidenceModel.confidence(MemoryOrigin.EXPLICIT, counts, PRIORS))
                .isCloseTo(7.9 / 11.1, within(1e-12));
    }

    @Test
    void a_fresh_explicit_memory_survives_one_unhelpful_rating_but_not_two() {
        double afterOne = ConfidenceModel.confidence(MemoryOrigin.EXPLICIT, new SignalCounts(0, 1, 0, 0, 0), PRIORS);
        double afterTwo = ConfidenceModel.confidence(MemoryOrigin.EXPLICIT, new SignalCounts(0, 2, 0, 0, 0), PRIORS);

        assertThat(afterOne).isCloseTo(4 / 5.7, within(1e-12)).isLessThan(0.8);
        assertThat(ConfidenceModel.searchable(afterOne)).isTrue();
        assertThat(afterTwo).isCloseTo(0.625, within(1e-12));
        assertThat(ConfidenceModel.searchable(afterTwo)).isFalse();
    }

    @Test
    void a_fresh_explicit_memory_is_hidden_by_two_failed_outcomes_but_not_one() {
        assertThat(ConfidenceModel.searchable(
                ConfidenceModel.confidence(MemoryOrigin.EXPLICIT, new SignalCounts(0, 0, 0, 0, 1), PRIORS))).isTrue();
        assertThat(ConfidenceModel.searchable(
                ConfidenceModel.confidence(MemoryOrigin.EXPLICIT, new SignalCounts(0, 0, 0, 0, 2), PRIORS))).isFalse();
    }

    @Test
    void a_distilled_memory_needs_two_confirmations_to_become_searchable() {
        assertThat(ConfidenceModel.searchable(ConfidenceModel.DISTILLED_CONFIDENCE)).isFalse();
        assertThat(confidenceDistilled(new SignalCounts(1, 0, 0, 0, 0))).isCloseTo(2.2 / 3.2, within(1e-12))
                .isLessThan(0.7);
        assertThat(confidenceDistilled(new SignalCounts(0, 0, 0, 1, 0))).isLessThan(0.7);
        assertThat(confidenceDistilled(new SignalCounts(2, 0, 0, 0, 0))).isCloseTo(2.9 / 3.9, within(1e-12))
                .isGreaterThanOrEqualTo(0.7);
        assertThat(confidenceDistilled(new SignalCounts(1, 0, 0, 1, 0))).isGreaterThanOrEqualTo(0.7);
        assertThat(confidenceDistilled(new SignalCounts(0, 0, 0, 2, 0))).isGreaterThanOrEqualTo(0.7);
    }

    @Test
    void one_unhelpful_rating_sinks_a_fresh_distilled_memory_well_below_the_threshold() {
        assertThat(confidenceDistilled(new SignalCounts(0, 1, 0, 0, 0))).isCloseTo(1.5 / 3.2, within(1e-12));
    }

    @Test
    void the_searchable_boundary_is_inclusive() {
        assertThat(ConfidenceModel.searchable(0.7)).isTrue();
        assertThat(ConfidenceModel.searchable(Math.nextDown(0.7))).isFalse();
    }

    @Test
    void learned_weights_change_how_far_a_signal_moves_confidence() {
        ProjectWeights distrustUsage = new ProjectWeights(new Beta(7, 3), new Beta(1, 9), new Beta(5, 5));
        SignalCounts retrievedOften = new SignalCounts(0, 0, 10, 0, 0);

        double trusting = ConfidenceModel.confidence(MemoryOrigin.EXPLICIT, retrievedOften, PRIORS);
        double distrusting = ConfidenceModel.confidence(MemoryOrigin.EXPLICIT, retrievedOften, distrustUsage);

        // 0.5 * 10 = 5 vs 0.1 * 10 = 1 added to alpha.
        assertThat(trusting).isCloseTo(9.0 / 10.0, within(1e-12));
        assertThat(distrusting).isCloseTo(5.0 / 6.0, within(1e-12));
    }

    @Test
    void a_positive_signal_never_lowers_confidence_and_a_negative_one_never_raises_it() {
        Random random = new Random(77);
        for (int i = 0; i < 2000; i++) {
            SignalCounts counts = randomCounts(random);
            ProjectWeights weights = randomWeights(random);
            MemoryOrigin origin = random.nextBoolean() ? MemoryOrigin.EXPLICIT : MemoryOrigin.DISTILLED;
            double before = ConfidenceModel.confidence(origin, counts, weights);

            for (RecordedSignal positive : List.of(RecordedSignal.explicit(true, T0), RecordedSignal.usage(T0),
                    RecordedSignal.outcome(true, T0))) {
                assertThat(ConfidenceModel.confidence(origin, counts.plus(positive), weights))
                        .as("case %d, %s", i, positive).isGreaterThanOrEqualTo(before);
            }
            for (RecordedSignal negative : List.of(RecordedSignal.explicit(false, T0),
                    RecordedSignal.outcome(false, T0))) {
                assertThat(ConfidenceModel.confidence(origin, counts.plus(negative), weights))
                        .as("case %d, %s", i, negative).isLessThanOrEqualTo(before);
            }
            assertThat(before).isStrictlyBetween(0.0, 1.0);
        }
    }

    @Test
    void the_hybrid_overload_is_the_confidence_of_aggregate_plus_recent() {
        SignalCounts aggregate = new SignalCounts(1, 0, 5, 2, 1);
        List<RecordedSignal> recent = List.of(RecordedSignal.explicit(false, T0), RecordedSignal.usage(T0));

        assertThat(ConfidenceModel.confidence(MemoryOrigin.DISTILLED, aggregate, recent, PRIORS))
                .isEqualTo(ConfidenceModel.confidence(MemoryOrigin.DISTILLED, new SignalCounts(1, 1, 6, 2, 1), PRIORS));
    }

    static SignalCounts randomCounts(Random random) {
        return new SignalCounts(random.nextInt(20), random.nextInt(20), random.nextInt(200), random.nextInt(20),
                random.nextInt(20));
    }

    static ProjectWeights randomWeights(Random random) {
        return new ProjectWeights(randomBeta(random), randomBeta(random), randomBeta(random));
    }

    private static Beta randomBeta(Random random) {
        return new Beta(0.5 + random.nextInt(60), 0.5 + random.nextInt(60));
    }

    private static double confidenceDistilled(SignalCounts counts) {
        return ConfidenceModel.confidence(MemoryOrigin.DISTILLED, counts, PRIORS);
    }
}
