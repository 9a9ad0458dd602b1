package dev.hindsight.memorymodel.confidence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class BetaTest {

    @Test
    void the_mean_is_alpha_over_alpha_plus_beta() {
        assertThat(new Beta(7, 3).mean()).isEqualTo(0.7);
        assertThat(new Beta(5, 5).mean()).isEqualTo(0.5);
        assertThat(new Beta(4, 1).mean()).isEqualTo(0.8);
        assertThat(new Beta(1.5, 1).mean()).isEqualTo(0.6);
        assertThat(new Beta(4, 1).strength()).isEqualTo(5.0);
    }

    @Test
    void plus_adds_weighted_evidence_without_changing_the_original() {
        Beta prior = new Beta(4, 1);

        Beta after = prior.plus(0.5, 0.7);

        assertThat(after).isEqualTo(new Beta(4.5, 1.7));
        assertThat(prior).isEqualTo(new Beta(4, 1));
        assertThat(prior.plus(0, 0)).isEqualTo(prior);
    }

    @Test
    void with_mean_states_a_prior_by_its_mean_and_strength() {
        Beta beta = Beta.withMean(0.8, 5);

        assertThat(beta.alpha()).isCloseTo(4.0, within(1e-12));
        assertThat(beta.beta()).isCloseTo(1.0, within(1e-12));
        assertThat(beta.mean()).isEqualTo(0.8);
    }

    @ParameterizedTest
    @ValueSource(doubles = {0.0, -1.0, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY})
    void alpha_and_beta_must_be_positive_and_finite(double bad) {
        assertThatThrownBy(() -> new Beta(bad, 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("alpha");
        assertThatThrownBy(() -> new Beta(1, bad)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("beta");
    }

    @ParameterizedTest
    @ValueSource(doubles = {-0.1, Double.NaN, Double.POSITIVE_INFINITY})
    void evidence_weights_must_be_finite_and_non_negative(double bad) {
        Beta beta = new Beta(1, 1);

        assertThatThrownBy(() -> beta.plus(bad, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("successWeight");
        assertThatThrownBy(() -> beta.plus(0, bad)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("failureWeight");
    }

    @ParameterizedTest
    @ValueSource(doubles = {0.0, 1.0, -0.5, 1.5, Double.NaN})
    void a_mean_outside_the_open_unit_interval_is_refused(double bad) {
        assertThatThrownBy(() -> Beta.withMean(bad, 5)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void a_prior_without_strength_is_refused() {
        assertThatThrownBy(() -> Beta.withMean(0.5, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("strength");
    }
}
