package dev.hindsight.evaluation.shadow;

import static dev.hindsight.evaluation.shadow.Given.T0;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hindsight.platform.tenant.TenantId;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Properties that must hold for any decision set and any signals: 1000 seeded random cases each. */
class RealityAlignmentPropertiesTest {

    private static final int CASES = 1000;
    private static final String[] ACTIONS = {"DIRECT_ANSWER", "REQUIRE_COMM", "SUGGEST_COMM", "LOCAL_SEARCH"};
    private static final String[] USER_ACTIONS = {null, "/comm search latest", "retry", "  /COMM ask"};
    private static final String[] VIOLATIONS = {null, "comm_in_planning_phase", "tool_in_review_phase"};
    private static final Boolean[] THUMBS = {null, true, false};

    @Test
    void every_score_stays_in_the_unit_interval() {
        Random random = new Random(20250131);
        ShadowScoreCalculator calculator = new ShadowScoreCalculator(AlignmentWeights.defaults());
        for (int i = 0; i < CASES; i++) {
            DecisionSet set = randomSet(random);
            List<Signal> signals = randomSignals(random, random.nextInt(15));

            ShadowEvaluation evaluation = calculator.evaluate(set, signals, 1, Trigger.WINDOW_CLOSED);

            assertThat(evaluation.activeScore()).as("case %d", i).isBetween(0.0, 1.0);
            assertThat(evaluation.shadowScores().values()).as("case %d", i).allSatisfy(
                    score -> assertThat(score).isBetween(0.0, 1.0));
        }
    }

    @Test
    void every_score_stays_in_the_unit_interval_under_any_valid_weights() {
        Random random = new Random(7);
        for (int i = 0; i < CASES; i++) {
            RealityAlignment alignment = new RealityAlignment(randomWeights(random));
            DecisionSet set = randomSet(random);
            List<Signal> signals = randomSignals(random, random.nextInt(15));
            String activeAction = set.active().action();

            assertThat(alignment.score(set.active(), activeAction, signals)).as("case %d", i).isBetween(0.0, 1.0);
            for (Decision shadow : set.shadows()) {
                assertThat(alignment.score(shadow, activeAction, signals)).as("case %d", i).isBetween(0.0, 1.0);
            }
        }
    }

    @Test
    void a_smooth_completion_never_lowers_the_active_score() {
        Random random = new Random(42);
        RealityAlignment alignment = new RealityAlignment(AlignmentWeights.defaults());
        for (int i = 0; i < CASES; i++) {
            DecisionSet set = randomSet(random);
            List<Signal> signals = randomSignals(random, random.nextInt(15));
            String activeAction = set.active().action();
            double before = alignment.score(set.active(), activeAction, signals);

            List<Signal> more = new ArrayList<>(signals);
            more.add(new Signal("smooth-" + i, SignalType.SMOOTH_COMPLETION, T0.plusSeconds(7200),
                    null, null, null, null));
            double after = alignment.score(set.active(), activeAction, more);

            assertThat(after).as("case %d: %s", i, signals).isGreaterThanOrEqualTo(before);
        }
    }

    @Test
    void the_order_in_which_signals_arrive_never_matters() {
        Random random = new Random(99);
        ShadowScoreCalculator calculator = new ShadowScoreCalculator(AlignmentWeights.defaults());
        for (int i = 0; i < CASES; i++) {
            DecisionSet set = randomSet(random);
            List<Signal> signals = randomSignals(random, random.nextInt(15));
            ShadowEvaluation inOrder = calculator.evaluate(set, signals, 1, Trigger.WINDOW_CLOSED);

            List<Signal> shuffled = new ArrayList<>(signals);
            Collections.shuffle(shuffled, random);

            assertThat(calculator.evaluate(set, shuffled, 1, Trigger.WINDOW_CLOSED)).as("case %d", i)
                    .isEqualTo(inOrder);
        }
    }

    private static DecisionSet randomSet(Random random) {
        List<Decision> shadows = new ArrayList<>();
        int shadowCount = random.nextInt(4);
        for (int s = 0; s < shadowCount; s++) {
            shadows.add(Given.decision("v2." + s, pick(random, ACTIONS)));
        }
        return new DecisionSet(TenantId.of("acme"), "ds-" + random.nextInt(1000), "msg-1", "session-1", "v1",
                Given.decision("v1", pick(random, ACTIONS)), shadows, T0);
    }

    private static List<Signal> randomSignals(Random random, int count) {
        List<Signal> signals = new ArrayList<>();
        for (int s = 0; s < count; s++) {
            SignalType type = pick(random, SignalType.values());
            String requested = random.nextInt(3) == 0 ? pick(random, ACTIONS) : null;
            // Few distinct instants, so that ties on occurredAt happen and the event id has to break them.
            signals.add(new Signal("e" + s, type, T0.plusSeconds(random.nextInt(5) * 60L), requested,
                    pick(random, USER_ACTIONS), pick(random, THUMBS), pick(random, VIOLATIONS)));
        }
        return signals;
    }

    private static AlignmentWeights randomWeights(Random random) {
        return new AlignmentWeights(0.01 + random.nextDouble() * 5, randomRule(random), randomRule(random),
                randomRule(random), randomRule(random), randomRule(random), randomRule(random), randomRule(random),
                randomRule(random));
    }

    private static AlignmentWeights.Rule randomRule(Random random) {
        // Zero weights included: a rule switched off must not break the formula.
        return new AlignmentWeights.Rule(random.nextDouble(), random.nextInt(4) == 0 ? 0 : random.nextDouble() * 10,
                random.nextDouble(), random.nextDouble(), random.nextInt(4) == 0 ? 0 : random.nextDouble() * 10);
    }

    @SafeVarargs
    private static <T> T pick(Random random, T... values) {
        return values[random.nextInt(values.length)];
    }
}
