package dev.hindsight.evaluation.shadow;

import static dev.hindsight.evaluation.shadow.Given.T0;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hindsight.platform.tenant.TenantId;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Given a decision set (and a stand-in similarity), then the comparison of its active decision with each shadow. */
class DecisionComparatorTest {

    /** Fails the test if called: for cases where no similarity may be asked for. */
    private static final ReasoningSimilarity NEVER = (a, b) -> {
        throw new AssertionError("similarity asked for " + a + " / " + b);
    };

    private static DecisionSet set(Decision active, Decision... shadows) {
        return new DecisionSet(TenantId.of("acme"), "ds-abc123", "msg-456", "session-789", active.version(), active,
                List.of(shadows), T0);
    }

    private static DecisionComparison only(ReasoningSimilarity similarity, Decision active, Decision shadow) {
        List<DecisionComparison> comparisons = new DecisionComparator(similarity).compare(set(active, shadow));
        assertThat(comparisons).hasSize(1);
        return comparisons.get(0);
    }

    @Test
    void seed_002_example_require_comm_low_against_direct_answer_high() {
        Decision active = new Decision("v1.0.0", "EXTERNAL_FACT_UNCERTAIN", "REQUIRE_COMM", "low",
                "Time-sensitive query requires current data");
        Decision alpha = new Decision("v2.0-alpha", "LOCAL_KNOWLEDGE", "DIRECT_ANSWER", "high",
                "Python versioning is well-established");
        Decision beta = new Decision("v2.0-beta", "OPINION", "SUGGEST_COMM", "medium",
                "May benefit from external validation");

        List<DecisionComparison> comparisons = new DecisionComparator((a, b) -> 0.3).compare(set(active, alpha, beta));

        assertThat(comparisons).hasSize(2);
        DecisionComparison first = comparisons.get(0);
        assertThat(first.comparisonId()).isEqualTo("d81c5f12-b124-3ee1-9192-d8fa055344fa");
        assertThat(first.decisionSetId()).isEqualTo("ds-abc123");
        assertThat(first.messageId()).isEqualTo("msg-456");
        assertThat(first.sessionId()).isEqualTo("session-789");
        assertThat(first.activeVersion()).isEqualTo("v1.0.0");
        assertThat(first.shadowVersion()).isEqualTo("v2.0-alpha");
        assertThat(first.decisionDiverged()).isTrue();
        assertThat(first.actionDiverged()).isTrue();
        assertThat(first.activeAction()).isEqualTo("REQUIRE_COMM");
        assertThat(first.shadowAction()).isEqualTo("DIRECT_ANSWER");
        // |0.4 - 0.8| = 0.4, as design.md § Decision comparisons says
        assertThat(first.confidenceDelta()).isEqualTo(0.4);
        assertThat(first.reasoningSimilarity()).isEqualTo(0.3);
        assertThat(first.divergenceSeverity()).isEqualTo(Severity.HIGH);
        assertThat(first.divergenceSeverity().wireName()).isEqualTo("high");
        assertThat(first.comparisonType()).isEqualTo("decision_divergence");

        DecisionComparison second = comparisons.get(1);
        assertThat(second.comparisonId()).isEqualTo("1c64e8c0-7c28-3079-a278-ed4e60e226a5");
        assertThat(second.shadowVersion()).isEqualTo("v2.0-beta");
        assertThat(second.shadowAction()).isEqualTo("SUGGEST_COMM");
        // |0.4 - 0.6| = 0.2
        assertThat(second.confidenceDelta()).isEqualTo(0.2);
        assertThat(second.divergenceSeverity()).isEqualTo(Severity.HIGH);
        assertThat(second.comparisonType()).isEqualTo("decision_divergence");
    }

    @Test
    void same_classification_same_action_similar_reasoning_is_low_reasoning_analysis() {
        DecisionComparison comparison = only((a, b) -> 0.91,
                new Decision("v1", "OPINION", "DIRECT_ANSWER", "high", "a"),
                new Decision("v2", "OPINION", "DIRECT_ANSWER", "high", "b"));

        assertThat(comparison.decisionDiverged()).isFalse();
        assertThat(comparison.actionDiverged()).isFalse();
        assertThat(comparison.confidenceDelta()).isEqualTo(0.0);
        assertThat(comparison.reasoningSimilarity()).isEqualTo(0.91);
        assertThat(comparison.divergenceSeverity()).isEqualTo(Severity.LOW);
        assertThat(comparison.comparisonType()).isEqualTo("reasoning_analysis");
    }

    @Test
    void only_the_confidence_differs_by_at_least_0_3() {
        DecisionComparison comparison = only((a, b) -> 0.9,
                new Decision("v1", "OPINION", "DIRECT_ANSWER", "low", "a"),
                new Decision("v2", "OPINION", "DIRECT_ANSWER", "HIGH", "b"));

        assertThat(comparison.confidenceDelta()).isEqualTo(0.4);
        assertThat(comparison.divergenceSeverity()).isEqualTo(Severity.MEDIUM);
        assertThat(comparison.comparisonType()).isEqualTo("confidence_divergence");
    }

    @Test
    void a_confidence_difference_of_one_step_is_not_a_divergence() {
        // |0.6 - 0.8| = 0.2 < 0.3
        DecisionComparison comparison = only((a, b) -> 0.9,
                new Decision("v1", "OPINION", "DIRECT_ANSWER", "medium", "a"),
                new Decision("v2", "OPINION", "DIRECT_ANSWER", "high", "b"));

        assertThat(comparison.confidenceDelta()).isEqualTo(0.2);
        assertThat(comparison.divergenceSeverity()).isEqualTo(Severity.LOW);
        assertThat(comparison.comparisonType()).isEqualTo("reasoning_analysis");
    }

    @Test
    void only_the_action_differs_with_similar_reasoning() {
        DecisionComparison comparison = only((a, b) -> 0.8,
                new Decision("v1", "OPINION", "DIRECT_ANSWER", "medium", "a"),
                new Decision("v2", "OPINION", "SUGGEST_COMM", "medium", "b"));

        assertThat(comparison.actionDiverged()).isTrue();
        assertThat(comparison.decisionDiverged()).isFalse();
        assertThat(comparison.divergenceSeverity()).isEqualTo(Severity.MEDIUM);
        assertThat(comparison.comparisonType()).isEqualTo("action_divergence");
    }

    @Test
    void the_action_differs_and_the_reasoning_too() {
        DecisionComparison comparison = only((a, b) -> 0.4999,
                new Decision("v1", "OPINION", "DIRECT_ANSWER", "medium", "a"),
                new Decision("v2", "OPINION", "SUGGEST_COMM", "medium", "b"));

        assertThat(comparison.divergenceSeverity()).isEqualTo(Severity.HIGH);
        assertThat(comparison.comparisonType()).isEqualTo("action_divergence");
    }

    @Test
    void similarity_of_exactly_one_half_is_similar_enough() {
        DecisionComparison comparison = only((a, b) -> 0.5,
                new Decision("v1", "OPINION", "DIRECT_ANSWER", "medium", "a"),
                new Decision("v2", "OPINION", "SUGGEST_COMM", "medium", "b"));

        assertThat(comparison.divergenceSeverity()).isEqualTo(Severity.MEDIUM);
    }

    @Test
    void the_action_differs_and_the_reasoning_cannot_be_compared() {
        DecisionComparison blank = only(NEVER,
                new Decision("v1", "OPINION", "DIRECT_ANSWER", "medium", "a"),
                new Decision("v2", "OPINION", "SUGGEST_COMM", "medium", "  "));
        DecisionComparison missing = only(NEVER,
                new Decision("v1", "OPINION", "DIRECT_ANSWER", "medium", null),
                new Decision("v2", "OPINION", "SUGGEST_COMM", "medium", "b"));

        assertThat(blank.reasoningSimilarity()).isNull();
        assertThat(blank.divergenceSeverity()).isEqualTo(Severity.HIGH);
        assertThat(missing.reasoningSimilarity()).isNull();
        assertThat(missing.divergenceSeverity()).isEqualTo(Severity.HIGH);
    }

    @Test
    void reasoning_of_only_controls_format_or_spaces_is_not_compared() {
        // Each of these once reached the embedding model, which refuses text that trims to nothing.
        for (String invisible : List.of("\u0005", " \u0001\t", "\u007f", "\u200b\u00a0", "\u2028\ufeff", "\uffff")) {
            DecisionComparison comparison = only(NEVER,
                    new Decision("v1", "OPINION", "DIRECT_ANSWER", "medium", "a"),
                    new Decision("v2", "OPINION", "SUGGEST_COMM", "medium", invisible));

            assertThat(comparison.reasoningSimilarity()).as("%s", invisible.codePoints().boxed().toList()).isNull();
        }
    }

    @Test
    void any_letter_digit_mark_or_symbol_makes_reasoning_comparable() {
        for (String text : List.of("\u0005a", "7", "\u0301", "?", "\uD83D\uDE00", "\u6F22")) {
            assertThat(DecisionComparator.visible(text)).as(text).isTrue();
        }
        assertThat(DecisionComparator.visible(null)).isFalse();
        assertThat(DecisionComparator.visible("")).isFalse();
    }

    @Test
    void only_the_classification_differs() {
        DecisionComparison comparison = only((a, b) -> 0.1,
                new Decision("v1", "OPINION", "SUGGEST_COMM", "medium", "a"),
                new Decision("v2", "EXTERNAL_FACT_UNCERTAIN", "SUGGEST_COMM", "medium", "b"));

        // Dissimilar reasoning alone cannot make it high: the user sees the same action.
        assertThat(comparison.divergenceSeverity()).isEqualTo(Severity.MEDIUM);
        assertThat(comparison.comparisonType()).isEqualTo("decision_divergence");
    }

    @Test
    void a_missing_classification_on_one_side_is_a_divergence() {
        DecisionComparison comparison = only((a, b) -> 0.9,
                new Decision("v1", "OPINION", "SUGGEST_COMM", "medium", "a"),
                new Decision("v2", null, "SUGGEST_COMM", "medium", "b"));

        assertThat(comparison.decisionDiverged()).isTrue();
        assertThat(comparison.comparisonType()).isEqualTo("decision_divergence");
    }

    @Test
    void unknown_confidence_gives_no_delta() {
        DecisionComparison unknown = only((a, b) -> 0.9,
                new Decision("v1", "OPINION", "DIRECT_ANSWER", "very high", "a"),
                new Decision("v2", "OPINION", "DIRECT_ANSWER", "low", "b"));
        DecisionComparison missing = only((a, b) -> 0.9,
                new Decision("v1", "OPINION", "DIRECT_ANSWER", "low", "a"),
                new Decision("v2", "OPINION", "DIRECT_ANSWER", null, "b"));

        assertThat(unknown.confidenceDelta()).isNull();
        assertThat(unknown.divergenceSeverity()).isEqualTo(Severity.LOW);
        assertThat(unknown.comparisonType()).isEqualTo("reasoning_analysis");
        assertThat(missing.confidenceDelta()).isNull();
    }

    @Test
    void similarity_is_clamped_to_the_unit_interval_and_rounded() {
        Decision active = new Decision("v1", "OPINION", "DIRECT_ANSWER", "medium", "a");
        Decision shadow = new Decision("v2", "OPINION", "DIRECT_ANSWER", "medium", "b");

        assertThat(only((a, b) -> -0.2, active, shadow).reasoningSimilarity()).isEqualTo(0.0);
        assertThat(only((a, b) -> 1.0000001, active, shadow).reasoningSimilarity()).isEqualTo(1.0);
        assertThat(only((a, b) -> 0.123456, active, shadow).reasoningSimilarity()).isEqualTo(0.1235);
        assertThat(only((a, b) -> Double.NaN, active, shadow).reasoningSimilarity()).isNull();
    }

    @Test
    void the_similarity_sees_the_active_reasoning_first() {
        DecisionComparison comparison = only((a, b) -> a.equals("active says") && b.equals("shadow says") ? 0.7 : 0.0,
                new Decision("v1", "OPINION", "DIRECT_ANSWER", "medium", "active says"),
                new Decision("v2", "OPINION", "DIRECT_ANSWER", "medium", "shadow says"));

        assertThat(comparison.reasoningSimilarity()).isEqualTo(0.7);
    }

    @Test
    void a_set_without_shadows_has_nothing_to_compare() {
        assertThat(new DecisionComparator(NEVER).compare(set(new Decision("v1", "OPINION", "DIRECT_ANSWER", "low", "a"))))
                .isEmpty();
    }

    @Test
    void comparisons_follow_shadow_order_with_deterministic_ids() {
        Decision active = new Decision("v1", "OPINION", "DIRECT_ANSWER", "low", "a");
        DecisionSet set = set(active, new Decision("v3", "OPINION", "DIRECT_ANSWER", "low", "b"),
                new Decision("v2", "OPINION", "DIRECT_ANSWER", "low", "c"));

        List<DecisionComparison> first = new DecisionComparator((a, b) -> 0.5).compare(set);
        List<DecisionComparison> again = new DecisionComparator((a, b) -> 0.5).compare(set);

        assertThat(first).extracting(DecisionComparison::shadowVersion).containsExactly("v3", "v2");
        assertThat(again).isEqualTo(first);
        assertThat(first.get(0).comparisonId()).isNotEqualTo(first.get(1).comparisonId());
    }

    @Test
    void severities_have_wire_names() {
        assertThat(Severity.LOW.wireName()).isEqualTo("low");
        assertThat(Severity.MEDIUM.wireName()).isEqualTo("medium");
        assertThat(Severity.HIGH.wireName()).isEqualTo("high");
    }
}
