package dev.hindsight.memorymodel.confidence;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class MemoryOriginTest {

    @Test
    void the_priors_have_the_seeds_initial_confidences_and_the_documented_strengths() {
        assertThat(MemoryOrigin.EXPLICIT.prior()).isEqualTo(new Beta(4, 1));
        assertThat(MemoryOrigin.EXPLICIT.initialConfidence()).isEqualTo(ConfidenceModel.EXPLICIT_RECORD_CONFIDENCE);
        assertThat(MemoryOrigin.EXPLICIT.prior().strength()).isEqualTo(ConfidenceModel.EXPLICIT_PRIOR_STRENGTH);

        assertThat(MemoryOrigin.DISTILLED.prior()).isEqualTo(new Beta(1.5, 1));
        assertThat(MemoryOrigin.DISTILLED.initialConfidence()).isEqualTo(ConfidenceModel.DISTILLED_CONFIDENCE);
        assertThat(MemoryOrigin.DISTILLED.prior().strength()).isEqualTo(ConfidenceModel.DISTILLED_PRIOR_STRENGTH);
    }
}
