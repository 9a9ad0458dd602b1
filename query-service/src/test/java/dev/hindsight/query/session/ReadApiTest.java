package dev.hindsight.query.session;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;

import dev.hindsight.events.reasoning.ActivityRecorded;
import dev.hindsight.events.reasoning.ChatAttributes;
import dev.hindsight.events.reasoning.CommandRun;
import dev.hindsight.events.reasoning.DebugAttributes;
import dev.hindsight.events.reasoning.FileEdit;
import dev.hindsight.events.reasoning.LegacyToolInvocation;
import dev.hindsight.events.reasoning.MessageRecorded;
import dev.hindsight.events.reasoning.MessageRole;
import dev.hindsight.events.reasoning.PositionRecorded;
import dev.hindsight.events.reasoning.SessionCompleted;
import dev.hindsight.events.reasoning.SessionKind;
import dev.hindsight.events.reasoning.SessionOutcome;
import dev.hindsight.events.reasoning.SessionStarted;
import dev.hindsight.events.reasoning.ThoughtLog;
import dev.hindsight.events.reasoning.TradingAttributes;
import dev.hindsight.events.signals.SignalType;
import dev.hindsight.events.signals.SmoothCompletion;
import dev.hindsight.events.signals.UserFollowupOverride;
import dev.hindsight.testing.HindsightTestResource;
import dev.hindsight.testing.TestEvents;
import dev.hindsight.testing.TestTenants;
import dev.hindsight.testing.TestTopics;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Given events on the three source topics (real broker, registry and PostgreSQL), then the read API answers in the
 * specified shapes: {@code GET /reasoning} (design.md § The /reasoning query), traces (design.md § Events), audit
 * queries (design.md § Queries and leaderboard), session listing.
 */
@QuarkusTest
@QuarkusTestResource(HindsightTestResource.class)
class ReadApiTest {

    private static final Instant T0 = Instant.parse("2025-10-02T10:00:00Z");

    @Test
    void reasoningAnswersSeed000sExampleInItsShape() {
        String model = "gpt-5-" + UUID.randomUUID().toString().substring(0, 8);
        String sessionId = "trading-" + UUID.randomUUID();
        TestEvents.session("tenant-a", sessionId,
                SessionStarted.newBuilder().setKind(SessionKind.TRADING).setStartedAt(T0)
                        .setTrading(TradingAttributes.newBuilder().setJobId("550e8400-job").setDate(LocalDate.of(2025, 10, 2))
                                .setModel(model).build()).build(),
                message(0, MessageRole.USER, "Please analyze and update today's (2025-10-02) positions."),
                message(1, MessageRole.ASSISTANT, "Key intermediate steps\n\n- Read yesterday's positions..."),
                position(2, "GOOGL", 6, 245.15, 6633.10, 10104.00),
                position(1, "NVDA", 10, 189.60, 8104.00, 10000.00),
                SessionCompleted.newBuilder().setOutcome(SessionOutcome.SUCCESS)
                        .setCompletedAt(Instant.parse("2025-10-02T10:05:23Z")).setJudgeRequested(false).build());

        String query = "?date=2025-10-02&model=" + model + "&include_full_conversation=true";
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> given()
                .header("Authorization", TestTenants.TENANT_A.bearer())
                .when().get("/reasoning" + query)
                .then().statusCode(200).body("count", equalTo(1))
                .body("sessions[0].completed_at", equalTo("2025-10-02T10:05:23Z"))
                .body("sessions[0].positions", hasSize(2)));

        JsonPath answer = given().header("Authorization", TestTenants.TENANT_A.bearer())
                .when().get("/reasoning" + query).then().statusCode(200).extract().jsonPath();
        Map<String, Object> session = answer.getMap("sessions[0]");
        assertThat(session).containsOnlyKeys("session_id", "job_id", "date", "model", "session_summary", "started_at",
                "completed_at", "total_messages", "positions", "conversation");
        assertThat(session).containsEntry("session_id", sessionId).containsEntry("job_id", "550e8400-job")
                .containsEntry("date", "2025-10-02").containsEntry("model", model)
                .containsEntry("started_at", "2025-10-02T10:00:00Z").containsEntry("total_messages", 2);
        assertThat(answer.getList("sessions[0].positions.action_id")).containsExactly(1, 2);
        assertThat(answer.getMap("sessions[0].positions[0]")).containsOnlyKeys("action_id", "action_type", "symbol",
                "amount", "price", "cash_after", "portfolio_value");
        assertThat(answer.getFloat("sessions[0].positions[0].price")).isEqualTo(189.60f);
        assertThat(answer.getMap("sessions[0].conversation[0]")).containsOnlyKeys("message_index", "role", "content",
                "timestamp");
        assertThat(answer.getMap("sessions[0].conversation[1]")).containsKey("summary")
                .containsEntry("role", "assistant").containsEntry("timestamp", "2025-10-02T10:00:01Z");

        // Without include_full_conversation, no conversation; the same answer at /v1/reasoning.
        given().header("Authorization", TestTenants.TENANT_A.bearer())
                .when().get("/v1/reasoning?job_id=550e8400-job&model=" + model)
                .then().statusCode(200).body("count", equalTo(1)).body("sessions[0]", not(hasKey("conversation")));
        // Another tenant sees nothing.
        given().header("Authorization", TestTenants.TENANT_B.bearer())
                .when().get("/reasoning" + query).then().statusCode(404);
    }

    @Test
    void reasoningRefusesAnInvalidDateAndSays404WhenNothingMatches() {
        given().header("Authorization", TestTenants.TENANT_A.bearer())
                .when().get("/reasoning?date=2025-13-45&include_full_conversation=maybe")
                .then().statusCode(400).contentType("application/problem+json")
                .body("errors.field", hasItem("date"))
                .body("errors.field", hasItem("include_full_conversation"));
        given().header("Authorization", TestTenants.TENANT_A.bearer())
                .when().get("/reasoning?model=no-such-model-" + UUID.randomUUID())
                .then().statusCode(404).contentType("application/problem+json");
        given().when().get("/reasoning").then().statusCode(401);
    }

    @Test
    void aTraceComesBackInSeed003sShapeInTraceOrderWithPendingQaResults() {
        String traceId = UUID.randomUUID().toString();
        Instant start = Instant.parse("2025-10-29T16:00:00Z");
        TestEvents.session("tenant-a", traceId,
                SessionStarted.newBuilder().setKind(SessionKind.DEBUG).setStartedAt(start)
                        .setDebug(DebugAttributes.newBuilder().setDeveloperId("dev-7").setTaskId("BUG-42")
                                .setTaskDescription("Totals are off by one").setRepoUrl("https://example.com/r.git")
                                .setRepoCommitHash("abc123").build()).build(),
                // Published out of order: the trace's own sequence decides.
                activity("e-3", 2, start.plusSeconds(420), CommandRun.newBuilder().setCommandText("pytest")
                        .setWorkingDirectory("repo").setExitCode(1).setStdout("1 failed").build()),
                activity("e-1", 0, start.plusSeconds(310), ThoughtLog.newBuilder()
                        .setThoughtText("Hypothesis: the loop skips the last item").build()),
                activity("e-2", 1, start.plusSeconds(385), FileEdit.newBuilder().setFilePath("src/totals.py")
                        .setContentDiff("-range(n-1)\n+range(n)").build()),
                SessionCompleted.newBuilder().setOutcome(SessionOutcome.SUCCESS).setCompletedAt(start.plusSeconds(7200))
                        .setFinalCodeDiff("diff --git a/src/totals.py").setJudgeRequested(false).build());

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> given()
                .header("Authorization", TestTenants.TENANT_A.bearer())
                .when().get("/v1/traces/" + traceId)
                .then().statusCode(200).body("events", hasSize(3)).body("Final_code_diff", not(nullValue())));

        JsonPath trace = given().header("Authorization", TestTenants.TENANT_A.bearer())
                .when().get("/v1/traces/" + traceId).then().statusCode(200).extract().jsonPath();
        assertThat(trace.getString("trace_id")).isEqualTo(traceId);
        assertThat(trace.getString("developer_id")).isEqualTo("dev-7");
        assertThat(trace.getString("task_id")).isEqualTo("BUG-42");
        assertThat(trace.getString("repo_commit_hash")).isEqualTo("abc123");
        assertThat(trace.getString("start_timestamp")).isEqualTo("2025-10-29T16:00:00Z");
        assertThat(trace.getString("end_timestamp")).isEqualTo("2025-10-29T18:00:00Z");
        assertThat(trace.getList("events.event_id")).containsExactly("e-1", "e-2", "e-3");
        assertThat(trace.getList("events.event_type")).containsExactly("thought_log", "file_edit", "command_run");
        assertThat(trace.getString("events[0].timestamp")).isEqualTo("2025-10-29T16:05:10.000Z");
        assertThat(trace.getInt("events[2].payload.exit_code")).isEqualTo(1);
        assertThat(trace.getString("qa_results.status")).isEqualTo("pending");
        assertThat(trace.getMap("qa_results")).containsKeys("score", "rubric", "judged_at");

        // The same session's detail view carries the activities and QA results too; a trace is not a chat.
        given().header("Authorization", TestTenants.TENANT_A.bearer())
                .when().get("/v1/sessions/" + traceId)
                .then().statusCode(200).body("activities", hasSize(3)).body("qa_results.status", equalTo("pending"));
        given().header("Authorization", TestTenants.TENANT_B.bearer())
                .when().get("/v1/traces/" + traceId).then().statusCode(404);
    }

    @Test
    void legacyMessagesGetStepsRebuiltAndFlaggedAsReconstructed() {
        String sessionId = "legacy-" + UUID.randomUUID();
        MessageRecorded legacy = MessageRecorded.newBuilder().setMessageIndex(0).setRole(MessageRole.ASSISTANT)
                .setContent("Done.").setTimestamp(T0).setLegacyReasoning("First I looked up the positions.")
                .setLegacyTools(List.of(LegacyToolInvocation.newBuilder().setToolName("get_positions")
                        .setToolArguments("{\"date\":\"2025-10-01\"}").setToolResult("[]").build()))
                .build();
        TestEvents.session("tenant-a", sessionId, SessionStarted.newBuilder().setKind(SessionKind.CHAT).setStartedAt(T0)
                .setChat(ChatAttributes.newBuilder().setModel("m").build()).build(), legacy);

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> given()
                .header("Authorization", TestTenants.TENANT_A.bearer())
                .when().get("/v1/sessions/" + sessionId)
                .then().statusCode(200)
                .body("messages[0].thinking_steps_reconstructed", equalTo(true))
                .body("messages[0].thinking_steps.step_type", equalTo(List.of("reasoning", "tool")))
                .body("messages[0].thinking_steps[1].tool_name", equalTo("get_positions"))
                .body("messages[0].thinking_steps[1].tool_arguments.date", equalTo("2025-10-01"))
                .body("messages[0].reasoning", equalTo("First I looked up the positions.")));
    }

    @Test
    void reasoningPagesEveryMatchingSessionOnceInOrderAndSaysHowManyThereAre() {
        String model = "paged-" + UUID.randomUUID().toString().substring(0, 8);
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            String id = "paged-" + i + "-" + UUID.randomUUID();
            ids.add(id);
            // Job ids in reverse of creation: the answer is ordered by date, model, job id, session id.
            TestEvents.session("tenant-a", id, SessionStarted.newBuilder().setKind(SessionKind.TRADING)
                    .setStartedAt(T0).setTrading(TradingAttributes.newBuilder().setJobId("job-" + (9 - i))
                            .setDate(LocalDate.of(2025, 10, 3)).setModel(model).build()).build());
        }
        String filters = "?date=2025-10-03&model=" + model;
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> given()
                .header("Authorization", TestTenants.TENANT_A.bearer()).when().get("/reasoning" + filters)
                .then().statusCode(200).body("count", equalTo(5)).body("total", equalTo(5))
                .body("next_cursor", nullValue()));

        List<String> seen = new ArrayList<>();
        List<Integer> counts = new ArrayList<>();
        String cursor = null;
        do {
            var request = given().header("Authorization", TestTenants.TENANT_A.bearer()).queryParam("limit", 2);
            if (cursor != null) {
                request.queryParam("cursor", cursor);
            }
            JsonPath page = request.when().get("/v1/reasoning" + filters).then().statusCode(200).extract().jsonPath();
            assertThat(page.getInt("total")).isEqualTo(5);
            counts.add(page.getInt("count"));
            seen.addAll(page.getList("sessions.session_id"));
            cursor = page.getString("next_cursor");
        } while (cursor != null && counts.size() < 10);
        assertThat(counts).containsExactly(2, 2, 1);
        List<String> byJobId = new ArrayList<>(ids);
        Collections.reverse(byJobId);
        assertThat(seen).containsExactlyElementsOf(byJobId);

        given().header("Authorization", TestTenants.TENANT_A.bearer()).queryParam("limit", 0)
                .when().get("/reasoning" + filters).then().statusCode(400)
                .contentType("application/problem+json").body("errors[0].field", equalTo("limit"));
        given().header("Authorization", TestTenants.TENANT_A.bearer()).queryParam("cursor", "bm90LWEtY3Vyc29y")
                .when().get("/reasoning" + filters).then().statusCode(400)
                .contentType("application/problem+json").body("errors[0].field", equalTo("cursor"));
    }

    @Test
    void sessionsAreListedNewestFirstPageByPageWithoutGapsOrRepeats() {
        String model = "list-" + UUID.randomUUID().toString().substring(0, 8);
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            String id = "listed-" + i + "-" + UUID.randomUUID();
            ids.add(id);
            TestEvents.session("tenant-a", id, SessionStarted.newBuilder().setKind(SessionKind.CHAT)
                    .setStartedAt(T0.plus(i, ChronoUnit.MINUTES))
                    .setChat(ChatAttributes.newBuilder().setModel(model).build()).build());
        }
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> given()
                .header("Authorization", TestTenants.TENANT_A.bearer())
                .when().get("/v1/sessions?model=" + model + "&limit=200")
                .then().statusCode(200).body("count", equalTo(5)));

        List<String> seen = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            var request = given().header("Authorization", TestTenants.TENANT_A.bearer())
                    .queryParam("model", model).queryParam("kind", "chat").queryParam("limit", 2);
            if (cursor != null) {
                request.queryParam("cursor", cursor);
            }
            JsonPath page = request.when().get("/v1/sessions").then().statusCode(200).extract().jsonPath();
            seen.addAll(page.getList("sessions.session_id"));
            cursor = page.getString("next_cursor");
            pages++;
        } while (cursor != null && pages < 10);
        assertThat(pages).isEqualTo(3);
        assertThat(seen).containsExactly(ids.get(4), ids.get(3), ids.get(2), ids.get(1), ids.get(0));

        given().header("Authorization", TestTenants.TENANT_A.bearer())
                .when().get("/v1/sessions?kind=robot&limit=0&cursor=%%%&from=yesterday")
                .then().statusCode(400).contentType("application/problem+json")
                .body("errors.field", equalTo(List.of("kind", "from", "limit", "cursor")));
        given().header("Authorization", TestTenants.TENANT_B.bearer())
                .when().get("/v1/sessions?model=" + model).then().statusCode(200).body("count", equalTo(0));
    }

    @Test
    void auditQueriesGiveSeed002sCompletePicture() {
        String session = "session-" + UUID.randomUUID();
        String messageId = "msg-" + UUID.randomUUID();
        String withShadows = "ds-" + UUID.randomUUID();
        String withoutShadows = "ds-" + UUID.randomUUID();
        Instant at = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        TestTopics.writeAll(TestEvents.DECISIONS, List.of(
                Map.entry(messageId, TestEvents.decisionSet("tenant-a", withShadows, messageId, session, at, List.of(
                        TestEvents.decision("v2.0-alpha", "LOCAL_KNOWLEDGE", "DIRECT_ANSWER", "high",
                                "Python versioning is well-established"),
                        TestEvents.decision("v2.0-beta", "OPINION", "SUGGEST_COMM", "medium",
                                "May benefit from external validation")))),
                Map.entry("other-" + messageId, TestEvents.decisionSet("tenant-a", withoutShadows, "other-" + messageId,
                        session, at.minusSeconds(60), List.of()))));
        TestTopics.writeAll(TestEvents.SIGNALS, List.of(
                Map.entry(messageId, TestEvents.signal("tenant-a", messageId, session, SignalType.USER_FOLLOWUP_OVERRIDE,
                        UserFollowupOverride.newBuilder().setUserAction("/comm search Python latest version")
                                .setDelaySeconds(5.0).setOverrideReason("wanted current info").build(),
                        at.plusSeconds(5))),
                Map.entry(messageId, TestEvents.signal("tenant-a", messageId, session, SignalType.SMOOTH_COMPLETION,
                        SmoothCompletion.newBuilder().setInteractionDurationSeconds(30.0).build(),
                        at.plusSeconds(40)))));

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> given()
                .header("Authorization", TestTenants.TENANT_A.bearer())
                .when().get("/v1/decision-sets/" + withShadows)
                .then().statusCode(200).body("signals", hasSize(2)));

        given().header("Authorization", TestTenants.TENANT_A.bearer())
                .when().get("/v1/decision-sets?session_id=" + session + "&has_shadow=true&limit=100")
                .then().statusCode(200).body("count", equalTo(1))
                .body("decision_sets[0].event_type", equalTo("DECISION_SET_CREATED"))
                .body("decision_sets[0].payload.decision_set_id", equalTo(withShadows))
                .body("decision_sets[0].payload.active_decision.decision_action", equalTo("REQUIRE_COMM"))
                .body("decision_sets[0].payload.shadow_decisions", hasSize(2))
                .body("decision_sets[0].payload.shadow_versions", equalTo(List.of("v2.0-alpha", "v2.0-beta")))
                .body("decision_sets[0].payload.context_snapshot.rag_chunks", equalTo(3));
        given().header("Authorization", TestTenants.TENANT_A.bearer())
                .when().get("/v1/decision-sets?session_id=" + session)
                .then().statusCode(200).body("decision_sets.payload.decision_set_id",
                        equalTo(List.of(withShadows, withoutShadows)));
        given().header("Authorization", TestTenants.TENANT_A.bearer())
                .when().get("/v1/decision-sets/" + withShadows)
                .then().statusCode(200)
                .body("decision_set.payload.message_id", equalTo(messageId))
                .body("signals.payload.signal_type", equalTo(List.of("user_followup_override", "smooth_completion")))
                .body("signals[0].payload.signal_data.user_action", equalTo("/comm search Python latest version"))
                .body("signals[0].payload.signal_data.delay_seconds", equalTo(5.0f))
                .body("evaluations", hasSize(0));
        given().header("Authorization", TestTenants.TENANT_A.bearer())
                .when().get("/v1/messages/" + messageId + "/signals")
                .then().statusCode(200).body("count", equalTo(2));
        given().header("Authorization", TestTenants.TENANT_A.bearer())
                .when().get("/v1/decision-sets?has_shadow=perhaps&limit=5000")
                .then().statusCode(400).body("errors.field", equalTo(List.of("has_shadow", "limit")));
        given().header("Authorization", TestTenants.TENANT_B.bearer())
                .when().get("/v1/decision-sets/" + withShadows).then().statusCode(404);
        given().header("Authorization", TestTenants.TENANT_B.bearer())
                .when().get("/v1/messages/" + messageId + "/signals").then().statusCode(200).body("count", equalTo(0));
    }

    @Test
    void anEventPostgresRefusesIsDeadLetteredAloneAndItsBatchIsApplied() {
        String sessionId = "nul-" + UUID.randomUUID();
        // PostgreSQL text cannot hold U+0000: the database refuses this message (a data error, SQLSTATE 22).
        TestEvents.session("tenant-a", sessionId,
                SessionStarted.newBuilder().setKind(SessionKind.CHAT).setStartedAt(T0).build(),
                message(0, MessageRole.USER, "fine"),
                message(1, MessageRole.ASSISTANT, "not\u0000fine"),
                message(2, MessageRole.USER, "also fine"));

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> given()
                .header("Authorization", TestTenants.TENANT_A.bearer())
                .when().get("/v1/sessions/" + sessionId)
                .then().statusCode(200).body("messages.message_index", equalTo(List.of(0, 2))));
        var deadLetters = TestTopics.readRecords("hindsight.query.reasoning.dlq",
                record -> sessionId.equals(record.key()), 1, Duration.ofSeconds(30));
        assertThat(deadLetters).hasSize(1);
        assertThat(new String(deadLetters.get(0).headers().lastHeader("dead-letter-reason").value(),
                StandardCharsets.UTF_8)).isNotBlank();
    }

    private static MessageRecorded message(int index, MessageRole role, String content) {
        return MessageRecorded.newBuilder().setMessageIndex(index).setRole(role).setContent(content)
                .setTimestamp(T0.plusSeconds(index)).build();
    }

    private static PositionRecorded position(int actionId, String symbol, double amount, double price,
            double cashAfter, double portfolioValue) {
        return PositionRecorded.newBuilder().setActionId(actionId).setActionType("buy").setSymbol(symbol)
                .setAmount(amount).setPrice(price).setCashAfter(cashAfter).setPortfolioValue(portfolioValue)
                .setDailyProfit(0.0).build();
    }

    private static ActivityRecorded activity(String id, int sequence, Instant at, Object body) {
        return ActivityRecorded.newBuilder().setActivityId(id).setSequence(sequence).setTimestamp(at)
                .setActivity(body).build();
    }
}
