package dev.hindsight.evaluation.judge;

import static dev.hindsight.evaluation.judge.RubricJudge.CLARITY_OF_REASONING;
import static dev.hindsight.evaluation.judge.RubricJudge.EVIDENCE_GATHERING;
import static dev.hindsight.evaluation.judge.RubricJudge.HYPOTHESIS_FORMATION;
import static dev.hindsight.evaluation.judge.RubricJudge.REACTION_TO_FAILURES;
import static dev.hindsight.evaluation.judge.RubricJudge.VERIFICATION_AFTER_EDITS;
import static dev.hindsight.evaluation.judge.Traces.trace;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RubricJudgeTest {

    private static final List<String> DIMENSIONS = List.of(HYPOTHESIS_FORMATION, EVIDENCE_GATHERING,
            VERIFICATION_AFTER_EDITS, REACTION_TO_FAILURES, CLARITY_OF_REASONING);

    private final RubricJudge judge = new RubricJudge();

    private RubricDimension dimension(Trace trace, String name) {
        return judge.judge(trace).dimension(name).orElseThrow();
    }

    private int score(Trace trace, String name) {
        return dimension(trace, name).score();
    }

    @Test
    void identifiesItselfAsRubricV1() {
        assertThat(judge.id()).isEqualTo("rubric.v1");
        assertThat(judge.judge(Traces.methodical()).judge()).isEqualTo("rubric.v1");
    }

    @Test
    void weightsSumToOneHundredInReportingOrder() {
        assertThat(RubricJudge.WEIGHTS.keySet()).containsExactlyElementsOf(DIMENSIONS);
        assertThat(RubricJudge.WEIGHTS.values()).containsExactly(20, 25, 25, 15, 15);
    }

    @Nested
    class MethodicalVersusFlailing {

        @Test
        void methodicalTraceScoresFullMarksOnEveryDimension() {
            Judgement j = judge.judge(Traces.methodical());

            assertThat(j.dimensions()).extracting(RubricDimension::name).containsExactlyElementsOf(DIMENSIONS);
            assertThat(j.dimensions()).extracting(RubricDimension::score).containsExactly(100, 100, 100, 100, 100);
            assertThat(j.overallScore()).isEqualTo(100);
        }

        @Test
        void flailingTraceScoresLowExceptForRunningTheTests() {
            Judgement j = judge.judge(Traces.flailing());

            // hypothesis 1/3 changes preceded by a thought; no evidence; every change tested, last one green;
            // reactions (0 + 0.2 + 0.5) / 3 - 10 for the identical re-run; one terse thought for eight actions.
            assertThat(j.dimensions()).extracting(RubricDimension::score).containsExactly(17, 0, 100, 13, 8);
            assertThat(j.overallScore()).isEqualTo(32);
        }

        @Test
        void methodicalScoresClearlyAboveFlailingOverallAndNoLowerOnAnyDimension() {
            Judgement methodical = judge.judge(Traces.methodical());
            Judgement flailing = judge.judge(Traces.flailing());

            assertThat(methodical.overallScore()).isGreaterThanOrEqualTo(flailing.overallScore() + 40);
            for (String name : DIMENSIONS) {
                assertThat(methodical.dimension(name).orElseThrow().score())
                        .as(name)
                        .isGreaterThanOrEqualTo(flailing.dimension(name).orElseThrow().score());
            }
        }

        @Test
        void methodicalTraceTakesMoreStepsAndIsNotPenalisedForIt() {
            assertThat(Traces.methodical().steps()).hasSizeGreaterThanOrEqualTo(Traces.flailing().steps().size());
            assertThat(judge.judge(Traces.methodical()).overallScore()).isEqualTo(100);
        }
    }

    @Nested
    class EdgeCases {

        @Test
        void emptyTraceScoresZeroEverywhereWithNoEvents() {
            Judgement j = judge.judge(trace().build());

            assertThat(j.overallScore()).isZero();
            assertThat(j.dimensions()).extracting(RubricDimension::name).containsExactlyElementsOf(DIMENSIONS);
            assertThat(j.dimensions()).allSatisfy(d -> {
                assertThat(d.score()).isZero();
                assertThat(d.rationale()).isEqualTo("no events");
                assertThat(d.evidenceEventIds()).isEmpty();
            });
        }

        @Test
        void traceWithNullStepsIsEmpty() {
            assertThat(judge.judge(new Trace("s", null, null, null)).overallScore()).isZero();
        }

        @Test
        void traceWithOnlyThoughtsScoresReasoningButNothingDone() {
            Trace t = trace()
                    .thought("I suspect the cache is stale because the config changed yesterday.")
                    .thought("So the next step would be to clear it and reload the page.")
                    .build();
            Judgement j = judge.judge(t);

            assertThat(j.dimensions()).extracting(RubricDimension::score).containsExactly(100, 0, 0, 0, 100);
            assertThat(j.dimension(VERIFICATION_AFTER_EDITS).orElseThrow().rationale())
                    .isEqualTo("no edits to verify");
            assertThat(j.dimension(REACTION_TO_FAILURES).orElseThrow().rationale()).isEqualTo("no commands run");
            assertThat(j.overallScore()).isEqualTo(35);
        }

        @Test
        void commandsWithoutExitCodesAreNeitherFailuresNorPasses() {
            Trace t = trace()
                    .thought("I think the parser is wrong because the header row is counted.")
                    .run("pytest", null)
                    .edit("parser.py")
                    .run("pytest", null)
                    .build();
            Judgement j = judge.judge(t);

            assertThat(j.dimension(REACTION_TO_FAILURES).orElseThrow())
                    .extracting(RubricDimension::score, RubricDimension::rationale)
                    .containsExactly(50, "no exit codes reported");
            // Verified, but whether it passed is unknown: 70 + 10.
            assertThat(j.dimension(VERIFICATION_AFTER_EDITS).orElseThrow().score()).isEqualTo(80);
        }

        @Test
        void stepsWithMissingTextsAndCommandsAreJudgedWithoutError() {
            Trace t = trace().thought(null).run(null, 1).edit(null).run(null, 0).build();

            Judgement j = judge.judge(t);

            assertThat(j.dimensions()).hasSize(5);
            assertThat(j.overallScore()).isBetween(0, 100);
        }
    }

    @Nested
    class HypothesisFormation {

        @Test
        void hypothesisBeforeTheEditAndEveryChangePrecededByAThoughtScoresFull() {
            Trace t = trace()
                    .thought("Maybe the timezone is dropped when parsing.")
                    .edit("time.py")
                    .run("pytest", 1)
                    .thought("Still failing; the offset is applied twice.")
                    .edit("time.py")
                    .build();

            RubricDimension d = dimension(t, HYPOTHESIS_FORMATION);

            assertThat(d.score()).isEqualTo(100);
            assertThat(d.evidenceEventIds()).containsExactly("e1");
        }

        @Test
        void editsWithoutAnyThoughtScoreZeroAndCiteTheBlindEdits() {
            Trace t = trace().edit("a.py").run("pytest", 1).edit("a.py").run("pytest", 0).build();

            RubricDimension d = dimension(t, HYPOTHESIS_FORMATION);

            assertThat(d.score()).isZero();
            assertThat(d.evidenceEventIds()).containsExactly("e1", "e3");
            assertThat(d.rationale()).isEqualTo("no hypothesis stated; 0 of 2 changes preceded by a thought");
        }

        @Test
        void hypothesisOnlyAfterEditingEarnsHalfTheStatementPoints() {
            Trace t = trace()
                    .edit("a.py")
                    .thought("Maybe the cache is stale after the first change.")
                    .edit("a.py")
                    .build();

            RubricDimension d = dimension(t, HYPOTHESIS_FORMATION);

            // 25 for a late hypothesis + 50 x 1/2 changes preceded by a thought.
            assertThat(d.score()).isEqualTo(50);
            assertThat(d.evidenceEventIds()).containsExactly("e1", "e2");
        }

        @Test
        void consecutiveEditsAreOneChange() {
            Trace t = trace()
                    .thought("The bug is probably in both the reader and the writer.")
                    .edit("reader.py")
                    .edit("writer.py")
                    .edit("common.py")
                    .build();

            assertThat(score(t, HYPOTHESIS_FORMATION)).isEqualTo(100);
        }

        @Test
        void thoughtsWithoutAHypothesisAreCitedAsWhatLostThePoints() {
            Trace t = trace().thought("Opening the file now.").edit("a.py").build();

            RubricDimension d = dimension(t, HYPOTHESIS_FORMATION);

            assertThat(d.score()).isEqualTo(50);
            assertThat(d.evidenceEventIds()).containsExactly("e1");
        }

        @ParameterizedTest
        @ValueSource(strings = {
                "I suspect the loop bound.", "It might be the loop bound.", "Maybe it is the loop bound.",
                "The loop bound is likely off by one.", "Hypothesis: the loop bound is off.",
                "It is probably the loop bound.", "It could be the loop bound.", "I think the loop bound is off.",
                "It breaks because the loop bound is off.", "Perhaps the loop bound is wrong.",
                "The root cause seems to be the loop bound."})
        void eachHypothesisCueBeforeAnEditEarnsTheStatementPoints(String thought) {
            Trace t = trace().thought(thought).edit("loop.py").build();

            assertThat(score(t, HYPOTHESIS_FORMATION)).isEqualTo(100);
        }

        @Test
        void withoutEditsAStatedHypothesisIsEnough() {
            assertThat(score(trace().thought("I suspect a race.").build(), HYPOTHESIS_FORMATION)).isEqualTo(100);
            assertThat(score(trace().thought("Looking around.").build(), HYPOTHESIS_FORMATION)).isZero();
        }
    }

    @Nested
    class EvidenceGathering {

        @Test
        void reproducingReadingAndObservingBeforeTheEditScoresFull() {
            RubricDimension d = dimension(Traces.methodical(), EVIDENCE_GATHERING);

            assertThat(d.score()).isEqualTo(100);
            assertThat(d.evidenceEventIds()).containsExactly("e2", "e3", "e4", "e5", "e6");
        }

        @Test
        void editingFirstScoresZeroAndCitesTheBlindEdit() {
            Trace t = trace().edit("a.py").run("grep -n foo a.py", 0).thought("The output shows foo twice.").build();

            RubricDimension d = dimension(t, EVIDENCE_GATHERING);

            assertThat(d.score()).isZero();
            assertThat(d.evidenceEventIds()).containsExactly("e1");
            assertThat(d.rationale()).isEqualTo("no evidence gathered before the first edit");
        }

        @Test
        void reproducingAloneEarnsThirty() {
            assertThat(score(trace().run("pytest -k last_row", 1).edit("a.py").build(), EVIDENCE_GATHERING))
                    .isEqualTo(30);
        }

        @Test
        void oneDiagnosticEarnsTwentyFiveAndASecondDifferentOneTenMore() {
            assertThat(score(trace().run("git log -p export/csv.py", 0).edit("a.py").build(), EVIDENCE_GATHERING))
                    .isEqualTo(25);
            assertThat(score(trace().run("git log -p export/csv.py", 0).run("git blame export/csv.py", 0)
                    .edit("a.py").build(), EVIDENCE_GATHERING)).isEqualTo(35);
        }

        @Test
        void theSameDiagnosticTwiceCountsOnce() {
            assertThat(score(trace().run("cat a.py", 0).run("cat  a.py", 0).edit("a.py").build(), EVIDENCE_GATHERING))
                    .isEqualTo(25);
        }

        @Test
        void observationThoughtsEarnTwentyFiveThenTenMore() {
            assertThat(score(trace().thought("The log shows a null id.").edit("a.py").build(), EVIDENCE_GATHERING))
                    .isEqualTo(25);
            assertThat(score(trace().thought("The log shows a null id.").thought("The stack trace points at line 12.")
                    .edit("a.py").build(), EVIDENCE_GATHERING)).isEqualTo(35);
        }

        @Test
        void housekeepingCommandsAreNotEvidence() {
            Trace t = trace().run("pip install -r requirements.txt", 0).run("cd src", 0).edit("a.py").build();

            RubricDimension d = dimension(t, EVIDENCE_GATHERING);

            assertThat(d.score()).isZero();
            assertThat(d.evidenceEventIds()).containsExactly("e3");
        }

        @Test
        void withoutEditsTheWholeTraceCounts() {
            Trace t = trace().run("pytest", 1).run("tail -n 50 app.log", 0).thought("The error is a timeout.").build();

            RubricDimension d = dimension(t, EVIDENCE_GATHERING);

            assertThat(d.score()).isEqualTo(80);
            assertThat(d.rationale()).isEqualTo("ran the code, 1 diagnostic command, 1 observation");
        }
    }

    @Nested
    class VerificationAfterEdits {

        @Test
        void everyEditFollowedByAPassingTestScoresFull() {
            Trace t = trace()
                    .edit("a.py").run("pytest", 0)
                    .edit("b.py").run("pytest", 0)
                    .build();

            RubricDimension d = dimension(t, VERIFICATION_AFTER_EDITS);

            assertThat(d.score()).isEqualTo(100);
            assertThat(d.evidenceEventIds()).containsExactly("e2", "e4");
        }

        @Test
        void noCommandAfterTheEditsScoresZeroAndCitesTheUnverifiedEdits() {
            Trace t = trace().run("pytest", 1).edit("a.py").thought("Done, I think.").edit("b.py").build();

            RubricDimension d = dimension(t, VERIFICATION_AFTER_EDITS);

            assertThat(d.score()).isZero();
            assertThat(d.evidenceEventIds()).containsExactly("e2", "e4");
            assertThat(d.rationale()).isEqualTo("0 of 2 changes followed by a run; last change not verified");
        }

        @Test
        void halfTheChangesVerifiedAndTheLastOneGreen() {
            Trace t = trace().edit("a.py").thought("Also the writer.").edit("b.py").run("mvn test", 0).build();

            // 70 x 1/2 + 30.
            assertThat(score(t, VERIFICATION_AFTER_EDITS)).isEqualTo(65);
        }

        @Test
        void endingOnAFailingRunLosesTheFinalThirty() {
            Trace t = trace().edit("a.py").run("npm test", 1).build();

            RubricDimension d = dimension(t, VERIFICATION_AFTER_EDITS);

            assertThat(d.score()).isEqualTo(70);
            assertThat(d.rationale()).endsWith("last run after the last change failed");
        }

        @Test
        void theLastRunAfterTheLastChangeDecides() {
            Trace t = trace().edit("a.py").run("go test ./...", 1).run("go test ./...", 0).build();

            RubricDimension d = dimension(t, VERIFICATION_AFTER_EDITS);

            assertThat(d.score()).isEqualTo(100);
            assertThat(d.evidenceEventIds()).containsExactly("e2", "e3");
        }

        @Test
        void readingTheFileIsNotVerifyingIt() {
            assertThat(score(trace().edit("a.py").run("cat a.py", 0).run("git diff", 0).build(),
                    VERIFICATION_AFTER_EDITS)).isZero();
        }

        @Test
        void failingThenFixedThenGreenScoresFull() {
            Trace t = trace().edit("a.py").run("./gradlew test", 1).edit("a.py").run("./gradlew test", 0).build();

            assertThat(score(t, VERIFICATION_AFTER_EDITS)).isEqualTo(100);
        }

        @Test
        void noEditsLeaveNothingToVerify() {
            RubricDimension d = dimension(trace().run("pytest", 0).build(), VERIFICATION_AFTER_EDITS);

            assertThat(d.score()).isZero();
            assertThat(d.evidenceEventIds()).isEmpty();
            assertThat(d.rationale()).isEqualTo("no edits to verify");
        }
    }

    @Nested
    class ReactionToFailures {

        @Test
        void aFailureFollowedByAnAnalysingThoughtScoresFull() {
            Trace t = trace().run("pytest", 1).thought("The assertion shows 2 rows instead of 3.").build();

            RubricDimension d = dimension(t, REACTION_TO_FAILURES);

            assertThat(d.score()).isEqualTo(100);
            assertThat(d.evidenceEventIds()).containsExactly("e1", "e2");
        }

        @Test
        void aBareThoughtEarnsHalf() {
            assertThat(score(trace().run("pytest", 1).thought("hmm").build(), REACTION_TO_FAILURES)).isEqualTo(50);
        }

        @Test
        void investigatingWithADiagnosticEarnsThreeQuarters() {
            assertThat(score(trace().run("pytest", 1).run("grep -rn parse src", 0).build(), REACTION_TO_FAILURES))
                    .isEqualTo(75);
        }

        @Test
        void runningSomethingElseEarnsHalf() {
            assertThat(score(trace().run("pytest", 1).run("python repro.py", 0).build(), REACTION_TO_FAILURES))
                    .isEqualTo(50);
        }

        @Test
        void editingRightAfterAFailureIsBlind() {
            assertThat(score(trace().run("pytest", 1).edit("a.py").run("pytest", 0).build(), REACTION_TO_FAILURES))
                    .isEqualTo(20);
        }

        @Test
        void aFailureLeftAtTheEndEarnsNothing() {
            assertThat(score(trace().run("pytest", 1).build(), REACTION_TO_FAILURES)).isZero();
        }

        @Test
        void repeatedIdenticalFailingCommandsArePenalised() {
            Trace t = trace()
                    .run("pytest", 1)
                    .run("pytest", 1)
                    .run("pytest", 1)
                    .thought("The same assertion fails every time, so it is not flaky.")
                    .build();

            RubricDimension d = dimension(t, REACTION_TO_FAILURES);

            // (0 + 0 + 1) / 3 = 33, minus 10 for each of the two identical re-runs.
            assertThat(d.score()).isEqualTo(13);
            assertThat(d.rationale()).isEqualTo("1 of 3 failures analysed in a thought; 2 identical failing re-runs");
        }

        @Test
        void reRunningAfterAnEditIsNotARepeat() {
            Trace withEdit = trace()
                    .run("pytest", 1).thought("The error shows a missing import.")
                    .edit("a.py")
                    .run("pytest", 1).thought("Now the error is a different assertion.")
                    .build();
            Trace withoutEdit = trace()
                    .run("pytest", 1).thought("The error shows a missing import.")
                    .run("pytest", 1).thought("Now the error is a different assertion.")
                    .build();

            assertThat(score(withEdit, REACTION_TO_FAILURES)).isEqualTo(100);
            assertThat(score(withoutEdit, REACTION_TO_FAILURES)).isEqualTo(90);
        }

        @Test
        void noFailuresScoreFullAndCiteTheCommands() {
            RubricDimension d = dimension(trace().run("pytest", 0).edit("a.py").run("pytest", 0).build(),
                    REACTION_TO_FAILURES);

            assertThat(d.score()).isEqualTo(100);
            assertThat(d.evidenceEventIds()).containsExactly("e1", "e3");
            assertThat(d.rationale()).isEqualTo("no command failed");
        }

        @Test
        void noCommandsScoreZero() {
            assertThat(score(trace().thought("I suspect the parser.").edit("a.py").build(), REACTION_TO_FAILURES))
                    .isZero();
        }
    }

    @Nested
    class ClarityOfReasoning {

        @Test
        void noThoughtsScoreZero() {
            RubricDimension d = dimension(trace().edit("a.py").run("pytest", 0).build(), CLARITY_OF_REASONING);

            assertThat(d.score()).isZero();
            assertThat(d.rationale()).isEqualTo("no thoughts logged");
        }

        @Test
        void terseThoughtsWithoutReasonsScoreOnlyTheRatio() {
            RubricDimension d = dimension(trace().thought("hmm").thought("ok").build(), CLARITY_OF_REASONING);

            assertThat(d.score()).isEqualTo(30);
            assertThat(d.evidenceEventIds()).containsExactly("e1", "e2");
        }

        @Test
        void oneExplainedThoughtForFourActionsLosesPartOfTheRatio() {
            Trace t = trace()
                    .thought("The header is counted as data because skip_header is false by default.")
                    .run("pytest", 1).run("cat a.py", 0).edit("a.py").run("pytest", 0)
                    .build();

            // 50 (1 of 1 explains why) + 20 (readable) + 30 x (1/4) / 0.5.
            assertThat(score(t, CLARITY_OF_REASONING)).isEqualTo(85);
        }

        @Test
        void halfTheThoughtsExplainingWhyIsEnough() {
            Trace t = trace()
                    .thought("The date parser ignores the offset, so times shift by two hours.")
                    .thought("Now reading the parser module to find where it happens.")
                    .build();

            assertThat(score(t, CLARITY_OF_REASONING)).isEqualTo(100);
        }

        @Test
        void aWallOfTextIsNotReadable() {
            String wall = "because " + "the value is wrong ".repeat(40);
            RubricDimension d = dimension(trace().thought(wall).build(), CLARITY_OF_REASONING);

            assertThat(d.score()).isEqualTo(80);
            assertThat(d.evidenceEventIds()).containsExactly("e1");
        }

        @ParameterizedTest
        @ValueSource(strings = {"because", "since", "so", "therefore", "thus", "hence", "due to", "as a result",
                "which means", "in order to", "otherwise"})
        void eachReasonCueCountsAsExplainingWhy(String cue) {
            Trace t = trace().thought("The rows are lost " + cue + " the split keeps an empty tail element.").build();

            assertThat(score(t, CLARITY_OF_REASONING)).isEqualTo(100);
        }
    }
}
