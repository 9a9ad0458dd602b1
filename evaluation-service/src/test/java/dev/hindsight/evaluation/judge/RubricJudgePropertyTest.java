package dev.hindsight.evaluation.judge;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Invariants of the rubric over 500 random traces from a fixed seed, so a failure always reproduces. */
class RubricJudgePropertyTest {

    private static final int CASES = 500;

    private static final String[] THOUGHTS = {
        "I suspect the parser drops the header because of the offset.", "hmm", "ok", null, "",
        "The log shows a timeout on line 12, so the client gives up too early.", "Trying again.",
        "Maybe the cache is stale.", "The output confirms the fix works.", "word ".repeat(150),
        "Unicode ünïcödé 思考 🚀 since the encoding differs."};
    private static final String[] COMMANDS = {
        "pytest", "pytest -k last_row", "grep -rn foo src", "cat a.py", "git log -p", "mvn test", "pip install x",
        "cd src", "./run.sh", null, "", "npm test && npm run lint", "tail -f app.log | grep ERROR"};
    private static final Integer[] EXIT_CODES = {0, 0, 1, 2, 127, null};

    private final RubricJudge judge = new RubricJudge();

    @Test
    void scoresStayWithinBoundsAndEveryDimensionIsReported() {
        Random random = new Random(20251029L);
        for (int n = 0; n < CASES; n++) {
            Trace trace = randomTrace(random);

            Judgement j = judge.judge(trace);

            assertThat(j.judge()).isEqualTo(RubricJudge.ID);
            assertThat(j.overallScore()).isBetween(0, 100);
            assertThat(j.dimensions()).extracting(RubricDimension::name)
                    .containsExactlyElementsOf(RubricJudge.WEIGHTS.keySet());
            assertThat(j.dimensions()).allSatisfy(d -> {
                assertThat(d.score()).isBetween(0, 100);
                assertThat(d.rationale()).isNotBlank().hasSizeLessThan(200);
            });
        }
    }

    @Test
    void overallIsTheWeightedMeanOfTheDimensions() {
        Random random = new Random(7L);
        for (int n = 0; n < CASES; n++) {
            Judgement j = judge.judge(randomTrace(random));

            double mean = j.dimensions().stream()
                    .mapToDouble(d -> RubricJudge.WEIGHTS.get(d.name()) * d.score() / 100.0)
                    .sum();
            // Within rounding of the exact weighted mean, and never outside the dimensions' range.
            assertThat((double) j.overallScore()).isCloseTo(mean, org.assertj.core.data.Offset.offset(0.5 + 1e-9));
            assertThat(j.overallScore()).isBetween(
                    j.dimensions().stream().mapToInt(RubricDimension::score).min().orElseThrow(),
                    j.dimensions().stream().mapToInt(RubricDimension::score).max().orElseThrow());
        }
    }

    @Test
    void judgingIsDeterministic() {
        Random random = new Random(42L);
        for (int n = 0; n < CASES; n++) {
            Trace trace = randomTrace(random);

            assertThat(new RubricJudge().judge(trace)).isEqualTo(judge.judge(trace));
        }
    }

    @Test
    void evidenceIsCitedExactlyWhenTheTraceHasStepsRelevantToTheDimension() {
        Random random = new Random(99L);
        for (int n = 0; n < CASES; n++) {
            Trace trace = randomTrace(random);
            Judgement j = judge.judge(trace);
            Set<String> ids = trace.steps().stream().map(TraceStep::eventId).collect(Collectors.toSet());

            assertThat(j.dimensions()).allSatisfy(d -> assertThat(ids).containsAll(d.evidenceEventIds()));
            assertCitesWhenRelevant(trace, j, RubricJudge.HYPOTHESIS_FORMATION,
                    s -> s.kind() == StepKind.THOUGHT || s.kind() == StepKind.EDIT);
            assertCitesWhenRelevant(trace, j, RubricJudge.EVIDENCE_GATHERING, s -> true);
            assertCitesWhenRelevant(trace, j, RubricJudge.VERIFICATION_AFTER_EDITS, s -> s.kind() == StepKind.EDIT);
            assertCitesWhenRelevant(trace, j, RubricJudge.REACTION_TO_FAILURES, s -> s.kind() == StepKind.COMMAND);
            assertCitesWhenRelevant(trace, j, RubricJudge.CLARITY_OF_REASONING, s -> s.kind() == StepKind.THOUGHT);
        }
    }

    @Test
    void verifyingTheLastChangeWithAPassingRunNeverLowersVerification() {
        Random random = new Random(1234L);
        for (int n = 0; n < CASES; n++) {
            Trace trace = randomTrace(random);
            List<TraceStep> more = new ArrayList<>(trace.steps());
            more.add(TraceStep.command("extra", more.size(), null, "pytest", 0, "ok", ""));

            assertThat(score(new Trace("s", null, more, null), RubricJudge.VERIFICATION_AFTER_EDITS))
                    .isGreaterThanOrEqualTo(score(trace, RubricJudge.VERIFICATION_AFTER_EDITS));
        }
    }

    @Test
    void analysingEveryFailureNeverLowersReactionToFailures() {
        Random random = new Random(5678L);
        for (int n = 0; n < CASES; n++) {
            Trace trace = randomTrace(random);
            List<TraceStep> analysed = new ArrayList<>();
            for (TraceStep step : trace.steps()) {
                analysed.add(step);
                if (step.failed()) {
                    analysed.add(TraceStep.thought(step.eventId() + "-why", analysed.size(), null,
                            "The error output shows the assertion that failed."));
                }
            }

            assertThat(score(new Trace("s", null, analysed, null), RubricJudge.REACTION_TO_FAILURES))
                    .isGreaterThanOrEqualTo(score(trace, RubricJudge.REACTION_TO_FAILURES));
        }
    }

    private int score(Trace trace, String name) {
        return judge.judge(trace).dimension(name).orElseThrow().score();
    }

    private static void assertCitesWhenRelevant(Trace trace, Judgement j, String name, Predicate<TraceStep> relevant) {
        boolean hasRelevant = trace.steps().stream().anyMatch(relevant);
        assertThat(j.dimension(name).orElseThrow().evidenceEventIds().isEmpty())
                .as("%s evidence empty for %s", name, trace.steps())
                .isEqualTo(!hasRelevant);
    }

    private static Trace randomTrace(Random random) {
        int length = random.nextInt(31);
        List<TraceStep> steps = new ArrayList<>();
        for (int i = 0; i < length; i++) {
            String id = "r" + i;
            steps.add(switch (StepKind.values()[random.nextInt(3)]) {
                case THOUGHT -> TraceStep.thought(id, i, null, THOUGHTS[random.nextInt(THOUGHTS.length)]);
                case EDIT -> TraceStep.edit(id, i, null, "src/f" + random.nextInt(3) + ".py", "-a\n+b");
                case COMMAND -> TraceStep.command(id, i, null, COMMANDS[random.nextInt(COMMANDS.length)],
                        EXIT_CODES[random.nextInt(EXIT_CODES.length)], "", "");
            });
        }
        return new Trace("random", "random task", steps, null);
    }
}
