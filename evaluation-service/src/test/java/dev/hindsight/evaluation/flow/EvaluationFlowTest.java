package dev.hindsight.evaluation.flow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.hindsight.events.decisions.Decision;
import dev.hindsight.events.evaluations.DecisionCompared;
import dev.hindsight.events.evaluations.EvaluationEvent;
import dev.hindsight.events.evaluations.ShadowEvaluationCompleted;
import dev.hindsight.events.insights.InsightEvent;
import dev.hindsight.events.insights.InsightStatus;
import dev.hindsight.events.insights.MessageSummarized;
import dev.hindsight.events.insights.SessionSummarized;
import dev.hindsight.events.insights.TraceJudged;
import dev.hindsight.events.reasoning.ActivityRecorded;
import dev.hindsight.events.reasoning.CommandRun;
import dev.hindsight.events.reasoning.DebugAttributes;
import dev.hindsight.events.reasoning.FileEdit;
import dev.hindsight.events.reasoning.MessageRecorded;
import dev.hindsight.events.reasoning.MessageRole;
import dev.hindsight.events.reasoning.PositionRecorded;
import dev.hindsight.events.reasoning.SessionCompleted;
import dev.hindsight.events.reasoning.SessionKind;
import dev.hindsight.events.reasoning.SessionOutcome;
import dev.hindsight.events.reasoning.SessionStarted;
import dev.hindsight.events.reasoning.ThoughtLog;
import dev.hindsight.events.reasoning.TradingAttributes;
import dev.hindsight.events.signals.ExplicitFeedback;
import dev.hindsight.events.signals.FeedbackRating;
import dev.hindsight.events.signals.SignalType;
import dev.hindsight.events.signals.SmoothCompletion;
import dev.hindsight.events.signals.UserFollowupOverride;
import dev.hindsight.testing.HindsightTestResource;
import dev.hindsight.testing.TestEvents;
import dev.hindsight.testing.TestTopics;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * evaluation-service end to end through the real broker, registry and database: given source events on the topics,
 * then the judgements it publishes on {@code hindsight.evaluations.v1} and {@code hindsight.insights.v1}.
 */
@QuarkusTest
@QuarkusTestResource(HindsightTestResource.class)
class EvaluationFlowTest {

    private static final String EVALUATIONS = "hindsight.evaluations.v1";
    private static final String INSIGHTS = "hindsight.insights.v1";
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final Instant SEED_TIME = Instant.parse("2025-01-31T10:30:00Z");

    @Test
    void theShadowThatChoseCommunicationOutscoresTheActiveDirectAnswerAndALateSignalAddsARevision() {
        String set = "ds-" + UUID.randomUUID();
        String message = "msg-" + UUID.randomUUID();
        // The signal goes first: the set is evaluated `settle` after it arrives, and a signal written after it could,
        // on a loaded machine, be polled later than that (the two topics are fetched independently).
        TestTopics.write(TestEvents.SIGNALS, message, TestEvents.signal("tenant-a", message, "session-789",
                SignalType.USER_FOLLOWUP_OVERRIDE, UserFollowupOverride.newBuilder()
                        .setUserAction("/comm search Python latest version").setDelaySeconds(5.0)
                        .setOverrideReason("wanted current info").build(), SEED_TIME.plusSeconds(5)));
        TestTopics.write(TestEvents.DECISIONS, message, directAnswerSet(set, message, SEED_TIME));

        // Historical decision set: its 30-minute window closed long ago, so it is evaluated once it settled.
        ShadowEvaluationCompleted first = evaluation(set, 1);
        assertThat(first.getTrigger()).isEqualTo("window_closed");
        assertThat(first.getActiveVersion()).isEqualTo("v1.0.0");
        assertThat(first.getSignalsUsed()).containsExactly("user_followup_override");
        // active: (1*0.5 + 2*0.0) / 3; each communication shadow did what the user asked: (1*0.5 + 2*1.0) / 3
        assertThat(first.getActiveScore()).isCloseTo(0.1667, within(1e-4));
        assertThat(first.getShadowScores()).containsOnlyKeys("v2.0-alpha", "v2.0-beta");
        first.getShadowScores().values().forEach(score -> assertThat(score).isCloseTo(0.8333, within(1e-4)));
        assertThat(first.getEvaluationMethod()).isEqualTo("reality_alignment.v1");

        List<DecisionCompared> comparisons = TestTopics.read(EVALUATIONS, EvaluationEvent.class,
                e -> e.getPayload() instanceof DecisionCompared c && c.getDecisionSetId().equals(set), 2, WAIT)
                .stream().map(r -> (DecisionCompared) r.value().getPayload()).toList();
        assertThat(comparisons).hasSize(2).allSatisfy(c -> {
            assertThat(c.getActionDiverged()).isTrue();
            assertThat(c.getActiveAction()).isEqualTo("DIRECT_ANSWER");
            assertThat(c.getReasoningSimilarity()).isBetween(0.0, 1.0);
            assertThat(c.getSimilarityModel()).isNotBlank();
        });
        assertThat(comparisons).extracting(DecisionCompared::getShadowAction)
                .containsExactlyInAnyOrder("REQUIRE_COMM", "SUGGEST_COMM");

        // A thumbs-down after the evaluation: a new revision, the first one is never edited.
        TestTopics.write(TestEvents.SIGNALS, message, TestEvents.signal("tenant-a", message, "session-789",
                SignalType.EXPLICIT_FEEDBACK, ExplicitFeedback.newBuilder().setRating(FeedbackRating.DOWN).build(),
                SEED_TIME.plusSeconds(60)));
        ShadowEvaluationCompleted second = evaluation(set, 2);
        assertThat(second.getTrigger()).isEqualTo("late_signal");
        assertThat(second.getSignalsUsed()).containsExactly("user_followup_override", "explicit_feedback");
        // active: (0.5 + 0 + 3*0) / (1 + 2 + 3); shadows: (0.5 + 2*1 + 1*0.8) / (1 + 2 + 1)
        assertThat(second.getActiveScore()).isCloseTo(0.0833, within(1e-4));
        second.getShadowScores().values().forEach(score -> assertThat(score).isCloseTo(0.825, within(1e-4)));
        assertThat(second.getEvaluationId()).isNotEqualTo(first.getEvaluationId());
    }

    @Test
    void aTerminalSignalEvaluatesAtOnceEvenWhenItArrivedBeforeItsDecisionSet() {
        String set = "ds-" + UUID.randomUUID();
        String message = "msg-" + UUID.randomUUID();
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        TestTopics.write(TestEvents.SIGNALS, message, TestEvents.signal("tenant-a", message, "session-1",
                SignalType.SMOOTH_COMPLETION, SmoothCompletion.newBuilder().setInteractionDurationSeconds(30.0)
                        .setFollowupQuestions(0).setUserSatisfaction("implied_high").build(), now));
        TestTopics.write(TestEvents.DECISIONS, message, directAnswerSet(set, message, now.minusSeconds(1)));

        ShadowEvaluationCompleted evaluation = evaluation(set, 1);
        // The window (30 minutes) is far from closed: the terminal signal triggered it.
        assertThat(evaluation.getTrigger()).isEqualTo("terminal_signal");
        // active: (0.5 + 1*1.0) / 2; shadows took another action: (0.5 + 0.5*0.5) / 1.5
        assertThat(evaluation.getActiveScore()).isCloseTo(0.75, within(1e-4));
        evaluation.getShadowScores().values().forEach(score -> assertThat(score).isCloseTo(0.5, within(1e-4)));
    }

    @Test
    void aDebuggingTraceIsJudgedOnTheRubricWithEvidence() {
        String trace = "trace-" + UUID.randomUUID();
        TestEvents.session("tenant-a", trace,
                SessionStarted.newBuilder().setKind(SessionKind.DEBUG).setStartedAt(SEED_TIME)
                        .setDebug(DebugAttributes.newBuilder().setDeveloperId("dev-1").setTaskId("BUG-42")
                                .setTaskDescription("Login fails for users with a plus sign in their email").build())
                        .build(),
                activity("t1", 0, new ThoughtLog("I suspect the email is URL-decoded twice, because '+' becomes a "
                        + "space; first I will reproduce it with a failing test.")),
                activity("c1", 1, new CommandRun("pytest tests/test_login.py -k plus", "repo", 1, "", "1 failed")),
                activity("t2", 2, new ThoughtLog("The test fails as expected, so the hypothesis holds; the decode "
                        + "happens in auth/forms.py and again in the view.")),
                activity("e1", 3, new FileEdit("auth/views.py", "- email = unquote(email)")),
                activity("c2", 4, new CommandRun("pytest tests/test_login.py", "repo", 0, "5 passed", "")),
                SessionCompleted.newBuilder().setOutcome(SessionOutcome.SUCCESS).setCompletedAt(SEED_TIME.plusSeconds(600))
                        .setFinalCodeDiff("- email = unquote(email)").build());

        TraceJudged judged = insight(trace, TraceJudged.class);
        assertThat(judged.getStatus()).isEqualTo(InsightStatus.COMPLETED);
        assertThat(judged.getJudge()).isEqualTo("rubric.v1");
        assertThat(judged.getOverallScore()).isBetween(0, 100);
        assertThat(judged.getRubric()).extracting(r -> r.getDimension()).containsExactly("hypothesis_formation",
                "evidence_gathering", "verification_after_edits", "reaction_to_failures", "clarity_of_reasoning");
        assertThat(judged.getRubric()).allSatisfy(r -> assertThat(r.getEvidenceEventIds())
                .isNotEmpty().allSatisfy(id -> assertThat(id).isIn("t1", "c1", "t2", "e1", "c2")));
    }

    @Test
    void aJudgeThatKeepsFailingIsPublishedAsAFailedJudgementWithItsReason() {
        // tenant-b's judge is the LLM judge, configured at an address where nothing listens (test profile).
        String trace = "trace-" + UUID.randomUUID();
        TestEvents.session("tenant-b", trace,
                SessionStarted.newBuilder().setKind(SessionKind.DEBUG).setStartedAt(SEED_TIME)
                        .setDebug(DebugAttributes.newBuilder().setDeveloperId("dev-2").setTaskId("BUG-7").build())
                        .build(),
                activity("t1", 0, new ThoughtLog("Let me look at the logs.")),
                SessionCompleted.newBuilder().setOutcome(SessionOutcome.UNKNOWN).setCompletedAt(SEED_TIME).build());

        TraceJudged judged = insight(trace, TraceJudged.class);
        assertThat(judged.getStatus()).isEqualTo(InsightStatus.FAILED);
        assertThat(judged.getAttempts()).isEqualTo(2);
        assertThat(judged.getOverallScore()).isNull();
        assertThat(judged.getFailureReason()).isNotBlank();
        assertThat(judged.getJudge()).startsWith("openai:");
    }

    @Test
    void aTradingSessionGetsASummaryOfEveryAssistantMessageAndOfTheSession() {
        String session = "trading-" + UUID.randomUUID();
        TestEvents.session("tenant-a", session,
                SessionStarted.newBuilder().setKind(SessionKind.TRADING).setStartedAt(SEED_TIME)
                        .setTrading(TradingAttributes.newBuilder().setJobId("job-1").setDate(LocalDate.of(2025, 10, 2))
                                .setModel("gpt-5").build()).build(),
                message(0, MessageRole.USER, "Review the portfolio for today."),
                message(1, MessageRole.ASSISTANT, "NVDA beat earnings expectations and guided higher. I will buy 10 "
                        + "shares of NVDA because the momentum is strong and cash is available. Let me also check "
                        + "the weather."),
                PositionRecorded.newBuilder().setActionId(1).setActionType("buy").setSymbol("NVDA").setAmount(10.0)
                        .setPrice(120.0).build(),
                SessionCompleted.newBuilder().setOutcome(SessionOutcome.SUCCESS)
                        .setCompletedAt(SEED_TIME.plusSeconds(3600)).build());

        MessageSummarized summary = insight(session, MessageSummarized.class);
        assertThat(summary.getMessageIndex()).isEqualTo(1);
        assertThat(summary.getStatus()).isEqualTo(InsightStatus.COMPLETED);
        assertThat(summary.getSummary()).contains("buy 10 shares of NVDA").doesNotContain("weather");
        assertThat(summary.getSummarizer()).isEqualTo("extractive.v1");

        SessionSummarized sessionSummary = insight(session, SessionSummarized.class);
        assertThat(sessionSummary.getSummary()).containsIgnoringCase("buy 10 NVDA");
        // The user's message is never summarized: every message summary of the session comes before its session
        // summary (one key, one partition, in order), and only message 1's is there.
        assertThat(messageSummariesBeforeTheSessionSummary(session)).containsExactly(1);
    }

    @Test
    void aConflictingReSendOfAnAssistantMessageIsNotSummarizedAgain() {
        String session = "resend-" + UUID.randomUUID();
        TestEvents.session("tenant-a", session,
                SessionStarted.newBuilder().setKind(SessionKind.CHAT).setStartedAt(SEED_TIME).build(),
                message(1, MessageRole.ASSISTANT, "I recommend restarting the service because the cache is stale."),
                message(1, MessageRole.ASSISTANT, "I will delete the database because it is slow."),
                SessionCompleted.newBuilder().setOutcome(SessionOutcome.SUCCESS)
                        .setCompletedAt(SEED_TIME.plusSeconds(60)).build());

        assertThat(insight(session, MessageSummarized.class).getSummary()).contains("restarting the service");
        // Only the first message at an index is recorded, so only it is summarized: an exact count, complete once the
        // session summary (published after every message's) has been read.
        assertThat(messageSummariesBeforeTheSessionSummary(session)).containsExactly(1);
    }

    @Test
    void aModelSummarizerWorksThroughJobsAndPublishesASummaryItCannotWriteAsFailed() {
        // tenant-b's summarizer is the LLM at an address where nothing listens (test profile): no inline summary, a
        // job retried with back-off, then the failure published with its reason.
        String session = "model-" + UUID.randomUUID();
        TestEvents.session("tenant-b", session,
                SessionStarted.newBuilder().setKind(SessionKind.CHAT).setStartedAt(SEED_TIME).build(),
                message(0, MessageRole.ASSISTANT, "I recommend restarting the service because the cache is stale."));

        MessageSummarized summary = insight(session, MessageSummarized.class);
        assertThat(summary.getStatus()).isEqualTo(InsightStatus.FAILED);
        assertThat(summary.getAttempts()).isEqualTo(2);
        assertThat(summary.getSummarizer()).startsWith("openai:");
        assertThat(summary.getFailureReason()).isNotBlank();
    }

    @Test
    void anUnreadableRecordIsDeadLetteredAndTheRestOfThePartitionIsStillJudged() {
        String session = "poison-" + UUID.randomUUID();
        TestTopics.writeRaw(TestEvents.REASONING, session, "not avro".getBytes(StandardCharsets.UTF_8));
        TestEvents.session("tenant-a", session,
                SessionStarted.newBuilder().setKind(SessionKind.CHAT).setStartedAt(SEED_TIME).build(),
                message(0, MessageRole.ASSISTANT, "I recommend restarting the service because the cache is stale."));

        assertThat(TestTopics.readRecords("hindsight.evaluation.reasoning.dlq",
                r -> session.equals(r.key()), 1, WAIT)).hasSize(1);
        assertThat(insight(session, MessageSummarized.class).getSummary()).contains("restarting the service");
    }

    private static ShadowEvaluationCompleted evaluation(String decisionSetId, int revision) {
        List<ConsumerRecord<String, EvaluationEvent>> found = TestTopics.read(EVALUATIONS, EvaluationEvent.class,
                e -> e.getPayload() instanceof ShadowEvaluationCompleted s && s.getDecisionSetId().equals(decisionSetId)
                        && s.getRevision() == revision, 1, WAIT);
        assertThat(found).as("revision %d of %s", revision, decisionSetId).hasSize(1);
        return (ShadowEvaluationCompleted) found.get(0).value().getPayload();
    }

    /** The indexes of the session's message summaries published before its session summary, in order. */
    private static List<Integer> messageSummariesBeforeTheSessionSummary(String sessionId) {
        return TestTopics.readUntil(INSIGHTS, InsightEvent.class,
                e -> e.getSessionId().equals(sessionId) && e.getPayload() instanceof MessageSummarized,
                e -> e.getSessionId().equals(sessionId) && e.getPayload() instanceof SessionSummarized, WAIT).stream()
                .map(r -> r.value().getPayload()).filter(MessageSummarized.class::isInstance)
                .map(p -> ((MessageSummarized) p).getMessageIndex()).toList();
    }

    private static <T> T insight(String sessionId, Class<T> type) {
        List<ConsumerRecord<String, InsightEvent>> found = TestTopics.read(INSIGHTS, InsightEvent.class,
                e -> e.getSessionId().equals(sessionId) && type.isInstance(e.getPayload()), 1, WAIT);
        assertThat(found).as("%s of %s", type.getSimpleName(), sessionId).hasSize(1);
        return type.cast(found.get(0).value().getPayload());
    }

    private static dev.hindsight.events.decisions.DecisionEvent directAnswerSet(String set, String message, Instant at) {
        return TestEvents.decisionSet("tenant-a", set, message, "session-789", at,
                TestEvents.decision(null, "LOCAL_KNOWLEDGE", "DIRECT_ANSWER", "high",
                        "Python versioning is well-established"),
                List.<Decision>of(
                        TestEvents.decision("v2.0-alpha", "EXTERNAL_FACT_UNCERTAIN", "REQUIRE_COMM", "low",
                                "Time-sensitive query requires current data"),
                        TestEvents.decision("v2.0-beta", "OPINION", "SUGGEST_COMM", "medium",
                                "May benefit from external validation")));
    }

    private static ActivityRecorded activity(String id, int sequence, Object body) {
        return ActivityRecorded.newBuilder().setActivityId(id).setSequence(sequence)
                .setTimestamp(SEED_TIME.plusSeconds(60L * (sequence + 1))).setActivity(body).build();
    }

    private static MessageRecorded message(int index, MessageRole role, String content) {
        return MessageRecorded.newBuilder().setMessageIndex(index).setRole(role).setContent(content)
                .setTimestamp(SEED_TIME.plusSeconds(index)).build();
    }
}
