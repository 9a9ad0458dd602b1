package dev.hindsight.query.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.hindsight.query.audit.LeaderboardStats.Interval;
import dev.hindsight.query.audit.LeaderboardStats.Recommendation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The leaderboard's interval and promotion rule, against textbook values. */
class LeaderboardStatsTest {

    @ParameterizedTest
    @CsvSource({"1, 12.7062", "2, 4.3027", "3, 3.1824", "5, 2.5706", "10, 2.2281", "20, 2.0860", "30, 2.0423",
            "60, 2.0003", "120, 1.9799", "1000, 1.9623"})
    void tQuantileMatchesTheTable(long df, double expected) {
        assertThat(LeaderboardStats.tQuantile975(df)).isCloseTo(expected, within(0.002));
    }

    /** Beyond the table, the expansion against quantiles to six decimals (R's qt(0.975, df)). */
    @ParameterizedTest
    @CsvSource({"11, 2.200985", "12, 2.178813", "15, 2.131450", "20, 2.085963", "30, 2.042272", "60, 2.000298",
            "120, 1.979930"})
    void theExpansionIsWithinItsStatedErrorBeyondTheTable(long df, double exact) {
        assertThat(LeaderboardStats.tQuantile975(df)).isCloseTo(exact, within(1e-5));
    }

    @Test
    void degreesOfFreedomStartAtOne() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> LeaderboardStats.tQuantile975(0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(LeaderboardStats.tQuantile975(10)).as("the table's last row").isEqualTo(2.2281);
    }

    @Test
    void intervalOfAMean() {
        // n=25, sd=0.5: half width = 2.0639 * 0.5 / 5 = 0.2064
        Interval interval = LeaderboardStats.interval(25, 0.6, 0.5);
        assertThat(interval.low()).isCloseTo(0.6 - 0.2064, within(0.001));
        assertThat(interval.high()).isCloseTo(0.6 + 0.2064, within(0.001));
    }

    @Test
    void oneObservationHasNoInterval() {
        assertThat(LeaderboardStats.interval(1, 0.8, Double.NaN)).isEqualTo(new Interval(0.8, null, null));
    }

    @Test
    void promotesOnlyWhenThePairedDifferenceIsSignificantlyPositiveOverEnoughEvaluations() {
        Interval better = LeaderboardStats.interval(40, 0.2, 0.3);      // 0.2 ± 0.096
        Interval worse = LeaderboardStats.interval(40, -0.2, 0.3);
        Interval noise = LeaderboardStats.interval(40, 0.05, 0.5);      // 0.05 ± 0.16
        assertThat(LeaderboardStats.recommend(40, better, 30)).isEqualTo(Recommendation.PROMOTE);
        assertThat(LeaderboardStats.recommend(40, worse, 30)).isEqualTo(Recommendation.DO_NOT_PROMOTE);
        assertThat(LeaderboardStats.recommend(40, noise, 30)).isEqualTo(Recommendation.INCONCLUSIVE);
        // The same clear advantage over too few evaluations is no recommendation.
        assertThat(LeaderboardStats.recommend(10, LeaderboardStats.interval(10, 0.6, 0.01), 30))
                .isEqualTo(Recommendation.KEEP_SHADOWING);
    }

    @Test
    void theBoundariesAreExact() {
        Interval clearlyBetter = new Interval(0.2, 0.1, 0.3);
        // Exactly the minimum number of evaluations is enough; one fewer is not.
        assertThat(LeaderboardStats.recommend(30, clearlyBetter, 30)).isEqualTo(Recommendation.PROMOTE);
        assertThat(LeaderboardStats.recommend(29, clearlyBetter, 30)).isEqualTo(Recommendation.KEEP_SHADOWING);
        // An interval that touches zero is not significant either way: promotion needs low > 0, refusal high < 0.
        assertThat(LeaderboardStats.recommend(30, new Interval(0.1, 0.0, 0.2), 30))
                .isEqualTo(Recommendation.INCONCLUSIVE);
        assertThat(LeaderboardStats.recommend(30, new Interval(0.1, Math.ulp(0.0), 0.2), 30))
                .isEqualTo(Recommendation.PROMOTE);
        assertThat(LeaderboardStats.recommend(30, new Interval(-0.1, -0.2, 0.0), 30))
                .isEqualTo(Recommendation.INCONCLUSIVE);
        assertThat(LeaderboardStats.recommend(30, new Interval(-0.1, -0.2, -Math.ulp(0.0)), 30))
                .isEqualTo(Recommendation.DO_NOT_PROMOTE);
        // No interval (fewer than two observations, or no spread known) is never a recommendation.
        assertThat(LeaderboardStats.recommend(30, new Interval(0.2, null, null), 30))
                .isEqualTo(Recommendation.KEEP_SHADOWING);
        // Two observations are the fewest with an interval.
        assertThat(LeaderboardStats.interval(2, 0.5, 0.1).low()).isCloseTo(0.5 - 12.7062 * 0.1 / Math.sqrt(2),
                within(0.001));
        assertThat(LeaderboardStats.interval(2, 0.5, Double.NaN).low()).isNull();
    }
}
