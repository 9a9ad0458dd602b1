package dev.hindsight.query.session;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

import dev.hindsight.events.EventHeader;
import dev.hindsight.events.evaluations.DecisionCompared;
import dev.hindsight.events.evaluations.EvaluationEvent;
import dev.hindsight.events.evaluations.ShadowEvaluationCompleted;
import dev.hindsight.events.insights.InsightEvent;
import dev.hindsight.events.insights.InsightStatus;
import dev.hindsight.events.insights.MessageSummarized;
import dev.hindsight.events.insights.RubricScore;
import dev.hindsight.events.insights.SessionSummarized;
import dev.hindsight.events.insights.TraceJudged;
import dev.hindsight.events.reasoning.DebugAttributes;
import dev.hindsight.events.reasoning.MessageRecorded;
import dev.hindsight.events.reasoning.MessageRole;
import dev.hindsight.events.reasoning.SessionCompleted;
import dev.hindsight.events.reasoning.SessionKind;
import dev.hindsight.events.reasoning.SessionOutcome;
import dev.hindsight.events.reasoning.SessionStarted;
import dev.hindsight.events.reasoning.TradingAttributes;
import dev.hindsight.testing.HindsightTestResource;
import dev.hindsight.testing.TestEvents;
import dev.hindsight.testing.TestTenants;
import dev.hindsight.testing.TestTopics;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * evaluation-service's judgements as dashboards read them: given insight and evaluation events on their topics, the
 * summaries in {@code GET /reasoning}, the QA results of a trace, the evaluations and comparisons of a decision set,
 * and the version leaderboard.
 */
@QuarkusTest
@QuarkusTestResource(HindsightTestResource.class)
class JudgementReadTest {

    private static final Instant T0 = Instant.parse("2025-10-02T10:00:00Z");
    private static final Duration WAIT = Duration.ofSeconds(30);

    @Test
    void summariesAppearInSeed000sAnswerWhicheverTopicIsProjectedFirst() {
        String model = "gpt-5-" + UUID.randomUUID().toString().substring(0, 8);
        String session = "trading-" + UUID.randomUUID();
        // The summaries are published before the session: the read model must not lose them.
        insight(session, MessageSummarized.newBuilder().setMessageIndex(1).setStatus(InsightStatus.COMPLETED)
                .setSummary("Bought 10 NVDA because demand for AI chips is strong.").setSummarizer("extractive.v1")
                .setProducedAt(T0).build());
        insight(session, SessionSummarized.newBuilder().setStatus(InsightStatus.COMPLETED)
                .setSummary("gpt-5 on 2025-10-02 traded once: buy 10 NVDA.").setSummarizer("extractive.v1")
                .setProducedAt(T0).build());
        TestEvents.session("tenant-a", session,
                SessionStarted.newBuilder().setKind(SessionKind.TRADING).setStartedAt(T0)
                        .setTrading(TradingAttributes.newBuilder().setJobId("job-1").setDate(LocalDate.of(2025, 10, 2))
                                .setModel(model).build()).build(),
                message(0, MessageRole.USER, "Update today's positions."),
                message(1, MessageRole.ASSISTANT, "Demand for AI chips is strong, so I buy 10 NVDA."),
                SessionCompleted.newBuilder().setOutcome(SessionOutcome.SUCCESS).setCompletedAt(T0.plusSeconds(60))
                        .build());

        String query = "/reasoning?date=2025-10-02&model=" + model + "&include_full_conversation=true";
        await().atMost(WAIT).untilAsserted(() -> given().header("Authorization", TestTenants.TENANT_A.bearer())
                .when().get(query).then().statusCode(200)
                .body("sessions[0].total_messages", equalTo(2))
                .body("sessions[0].session_summary", equalTo("gpt-5 on 2025-10-02 traded once: buy 10 NVDA."))
                .body("sessions[0].conversation[1].summary",
                        equalTo("Bought 10 NVDA because demand for AI chips is strong.")));
        JsonPath answer = given().header("Authorization", TestTenants.TENANT_A.bearer()).when().get(query)
                .then().extract().jsonPath();
        assertThat(answer.getMap("sessions[0].conversation[0]")).doesNotContainKey("summary");
    }

    @Test
    void aJudgedTraceComesBackWithItsRubric() {
        String trace = UUID.randomUUID().toString();
        TestEvents.session("tenant-a", trace,
                SessionStarted.newBuilder().setKind(SessionKind.DEBUG).setStartedAt(T0)
                        .setDebug(DebugAttributes.newBuilder().setDeveloperId("dev-1").setTaskId("BUG-1").build())
                        .build(),
                SessionCompleted.newBuilder().setOutcome(SessionOutcome.SUCCESS).setCompletedAt(T0).build());
        insight(trace, TraceJudged.newBuilder().setStatus(InsightStatus.COMPLETED).setOverallScore(82)
                .setRubric(List.of(RubricScore.newBuilder().setDimension("hypothesis_formation").setScore(90)
                        .setEvidenceEventIds(List.of("t1")).setRationale("stated a hypothesis first").build()))
                .setJudge("rubric.v1").setJudgedAt(T0.plusSeconds(5)).build());

        await().atMost(WAIT).untilAsserted(() -> given().header("Authorization", TestTenants.TENANT_A.bearer())
                .when().get("/v1/traces/" + trace).then().statusCode(200)
                .body("qa_results.status", equalTo("completed"))
                .body("qa_results.score", equalTo(82.0f))
                .body("qa_results.rubric.hypothesis_formation.score", equalTo(90))
                .body("qa_results.rubric.hypothesis_formation.evidence_event_ids", equalTo(List.of("t1")))
                .body("qa_results.judged_at", equalTo("2025-10-02T10:00:05Z")));
    }

    @Test
    void aDecisionSetShowsEveryRevisionOfItsEvaluationAndItsComparisons() {
        String set = "ds-" + UUID.randomUUID();
        String message = "msg-" + UUID.randomUUID();
        TestTopics.write(TestEvents.DECISIONS, message, TestEvents.decisionSet("tenant-a", set, message, "session-789",
                T0, List.of(TestEvents.decision("v2.0-alpha", "LOCAL_KNOWLEDGE", "DIRECT_ANSWER", "high", "known"))));
        evaluation(message, set, 2, "v1.0.0", 0.3, Map.of("v2.0-alpha", 0.9));
        evaluation(message, set, 1, "v1.0.0", 0.5, Map.of("v2.0-alpha", 0.5));
        TestTopics.write("hindsight.evaluations.v1", message, envelope(message, DecisionCompared.newBuilder()
                .setComparisonId(UUID.randomUUID().toString()).setDecisionSetId(set).setMessageId(message)
                .setSessionId("session-789").setActiveVersion("v1.0.0").setShadowVersion("v2.0-alpha")
                .setDecisionDiverged(true).setActionDiverged(true).setActiveAction("REQUIRE_COMM")
                .setShadowAction("DIRECT_ANSWER").setConfidenceDelta(0.4).setReasoningSimilarity(0.3)
                .setSimilarityModel("all-minilm-l6-v2-q").setDivergenceSeverity("high")
                .setComparisonType("decision_divergence").setTimestamp(T0).build()));

        await().atMost(WAIT).untilAsserted(() -> given().header("Authorization", TestTenants.TENANT_A.bearer())
                .when().get("/v1/decision-sets/" + set).then().statusCode(200)
                .body("evaluations", hasSize(2)).body("comparisons", hasSize(1)));
        JsonPath picture = given().header("Authorization", TestTenants.TENANT_A.bearer())
                .when().get("/v1/decision-sets/" + set).then().extract().jsonPath();
        assertThat(picture.getList("evaluations.payload.revision")).containsExactly(1, 2);
        assertThat(picture.getString("evaluations[1].event_type")).isEqualTo("SHADOW_EVALUATION_COMPLETED");
        assertThat(picture.getFloat("evaluations[1].payload.shadow_scores.'v2.0-alpha'")).isEqualTo(0.9f);
        assertThat(picture.getMap("comparisons[0].payload.comparison_result")).containsEntry("action_diverged", true)
                .containsEntry("divergence_severity", "high").containsEntry("active_action", "REQUIRE_COMM");
        assertThat(picture.getString("comparisons[0].event_type")).isEqualTo("DECISION_COMPARISON");

        given().header("Authorization", TestTenants.TENANT_A.bearer())
                .when().get("/v1/decision-sets/" + set + "/evaluations").then().statusCode(200)
                .body("count", equalTo(2)).body("evaluations[1].payload.active_score", equalTo(0.3f));
        given().header("Authorization", TestTenants.TENANT_B.bearer())
                .when().get("/v1/decision-sets/" + set + "/evaluations").then().statusCode(404);
    }

    @Test
    void theLeaderboardRecommendsPromotionOnlyForASignificantWinOverEnoughEvaluations() {
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        String active = "v1-" + suffix;
        String winner = "v2-winner-" + suffix;
        String coinFlip = "v2-coin-" + suffix;
        String fewButGood = "v3-few-" + suffix;
        // 32 decision sets: the winner beats the active on every message (by 0.2 to 0.4); the coin flip wins,
        // ties and loses evenly. Only the latest revision of a set counts: revision 1 of each says the opposite.
        for (int i = 0; i < 32; i++) {
            String message = "msg-" + suffix + "-" + i;
            String set = "ds-" + suffix + "-" + i;
            double activeScore = 0.4 + (i % 4) * 0.05;
            double coin = activeScore + (i % 3 == 0 ? 0.1 : i % 3 == 1 ? 0.0 : -0.1);
            evaluation(message, set, 1, active, 0.9, Map.of(winner, 0.1, coinFlip, 0.5));
            evaluation(message, set, 2, active, activeScore,
                    Map.of(winner, activeScore + 0.2 + (i % 3) * 0.1, coinFlip, coin));
        }
        for (int i = 0; i < 3; i++) {
            evaluation("msg-few-" + suffix + i, "ds-few-" + suffix + i, 1, active, 0.2, Map.of(fewButGood, 0.95));
        }

        // Every set counts once its first revision is projected, and each set's two revisions may arrive in
        // different batches: the leaderboard is asserted once every set's latest revision is in it.
        await().atMost(WAIT).untilAsserted(() -> assertThat(entry(winner, "shadow")).containsEntry("evaluations", 32)
                .containsEntry("wins", 32).containsEntry("ties", 0).containsEntry("losses", 0)
                .containsEntry("recommendation", "promote"));
        Map<String, Object> win = entry(winner, "shadow");
        assertThat(((Number) win.get("mean_difference")).doubleValue()).isBetween(0.2, 0.4);
        assertThat((List<?>) win.get("difference_ci95")).hasSize(2);

        await().atMost(WAIT).untilAsserted(() -> {
            Map<String, Object> coin = entry(coinFlip, "shadow");
            assertThat(coin).containsEntry("evaluations", 32).containsEntry("recommendation", "inconclusive");
            assertThat(((Number) coin.get("wins")).intValue() + ((Number) coin.get("ties")).intValue()
                    + ((Number) coin.get("losses")).intValue()).isEqualTo(32);
        });

        await().atMost(WAIT).untilAsserted(() -> assertThat(entry(fewButGood, "shadow")).containsEntry("evaluations", 3));
        assertThat(entry(fewButGood, "shadow")).containsEntry("recommendation", "keep_shadowing");
        assertThat(entry(active, "active")).containsEntry("evaluations", 35).doesNotContainKey("recommendation");

        given().header("Authorization", TestTenants.TENANT_A.bearer())
                .when().get("/v1/versions/leaderboard?from=2025-13-01").then().statusCode(400)
                .contentType("application/problem+json");
        assertThat(given().header("Authorization", TestTenants.TENANT_B.bearer())
                .when().get("/v1/versions/leaderboard").then().statusCode(200).extract().jsonPath()
                .getList("versions.version")).doesNotContain(winner);
    }

    private static Map<String, Object> entry(String version, String role) {
        List<Map<String, Object>> versions = given().header("Authorization", TestTenants.TENANT_A.bearer())
                .when().get("/v1/versions/leaderboard").then().statusCode(200).extract().jsonPath()
                .getList("versions");
        return versions.stream().filter(v -> version.equals(v.get("version")) && role.equals(v.get("role")))
                .findFirst().orElse(Map.of());
    }

    private static void evaluation(String message, String set, int revision, String activeVersion, double active,
            Map<String, Double> shadows) {
        TestTopics.write("hindsight.evaluations.v1", message, envelope(message, ShadowEvaluationCompleted.newBuilder()
                .setEvaluationId(UUID.randomUUID().toString()).setDecisionSetId(set).setMessageId(message)
                .setSessionId("session-789").setActiveVersion(activeVersion).setActiveScore(active)
                .setShadowScores(new java.util.HashMap<>(shadows)).setSignalsUsed(new ArrayList<>(List.of("smooth_completion")))
                .setEvaluationTimeMs(1.5).setEvaluationMethod("reality_alignment.v1").setRevision(revision)
                .setTrigger(revision == 1 ? "terminal_signal" : "late_signal").setTimestamp(T0.plusSeconds(revision))
                .build()));
    }

    private static EvaluationEvent envelope(String message, Object payload) {
        return EvaluationEvent.newBuilder().setHeader(header()).setMessageId(message).setPayload(payload).build();
    }

    private static void insight(String session, Object payload) {
        TestTopics.write("hindsight.insights.v1", session, InsightEvent.newBuilder().setHeader(header())
                .setSessionId(session).setPayload(payload).build());
    }

    private static EventHeader header() {
        return TestEvents.header("tenant-a", T0);
    }

    private static MessageRecorded message(int index, MessageRole role, String content) {
        return MessageRecorded.newBuilder().setMessageIndex(index).setRole(role).setContent(content)
                .setTimestamp(T0.plusSeconds(index)).build();
    }
}
