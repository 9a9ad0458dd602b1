package dev.hindsight.evaluation.shadow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.hindsight.platform.tenant.TenantId;
import dev.hindsight.testing.HindsightTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The real in-process MiniLM model, as the service loads it: related reasoning scores above unrelated reasoning. A
 * Quarkus test because the model's native tokenizer library can be loaded by one class loader per JVM only, and the
 * application's (shared by this module's Quarkus tests) is the one that loads it.
 */
@QuarkusTest
@QuarkusTestResource(HindsightTestResource.class)
class MiniLmSimilarityTest {

    @Inject
    ReasoningSimilarity similarity;

    @Test
    void reasoning_that_says_the_same_thing_is_closer_than_an_unrelated_fact() {
        String sell = "The market is volatile so we sell";

        double paraphrase = similarity.similarity(sell, "Volatility is high, selling is wise");
        double unrelated = similarity.similarity(sell, "Python 3.13 was released in October");

        assertThat(paraphrase).isGreaterThan(unrelated + 0.2);
        assertThat(paraphrase).isBetween(-1.0, 1.0);
        assertThat(unrelated).isBetween(-1.0, 1.0);
    }

    @Test
    void identical_texts_are_as_similar_as_can_be() {
        String text = "Time-sensitive query requires current data";

        assertThat(similarity.similarity(text, text)).isCloseTo(1.0, within(1e-4));
    }

    @Test
    void the_same_pair_always_scores_the_same() {
        String a = "Python versioning is well-established";
        String b = "May benefit from external validation";

        assertThat(similarity.similarity(a, b)).isEqualTo(similarity.similarity(a, b));
    }

    @Test
    void the_comparator_with_the_real_model_ranks_the_seeds_reasonings() {
        Decision active = new Decision("v1.0.0", "EXTERNAL_FACT_UNCERTAIN", "REQUIRE_COMM", "low",
                "Time-sensitive query requires current data");
        DecisionSet set = new DecisionSet(TenantId.of("acme"), "ds-abc123", "msg-456", "session-789", "v1.0.0", active,
                List.of(new Decision("v2.0-alpha", "EXTERNAL_FACT_UNCERTAIN", "REQUIRE_COMM", "low",
                                "The question needs up-to-date information from an external source"),
                        new Decision("v2.0-beta", "LOCAL_KNOWLEDGE", "DIRECT_ANSWER", "high",
                                "Bananas are rich in potassium")),
                Given.T0);

        List<DecisionComparison> comparisons = new DecisionComparator(similarity).compare(set);

        assertThat(comparisons.get(0).reasoningSimilarity()).isBetween(0.0, 1.0)
                .isGreaterThan(comparisons.get(1).reasoningSimilarity());
        assertThat(comparisons.get(0).divergenceSeverity()).isEqualTo(Severity.LOW);
        assertThat(comparisons.get(1).divergenceSeverity()).isEqualTo(Severity.HIGH);
    }
}
