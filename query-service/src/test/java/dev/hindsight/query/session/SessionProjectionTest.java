package dev.hindsight.query.session;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

import dev.hindsight.events.EventHeader;
import dev.hindsight.events.ProducerIdentity;
import dev.hindsight.events.reasoning.ChatAttributes;
import dev.hindsight.events.reasoning.DebugAttributes;
import dev.hindsight.events.reasoning.MessageRecorded;
import dev.hindsight.events.reasoning.MessageRole;
import dev.hindsight.events.reasoning.ReasoningEvent;
import dev.hindsight.events.reasoning.SessionKind;
import dev.hindsight.events.reasoning.SessionStarted;
import dev.hindsight.events.reasoning.StepType;
import dev.hindsight.events.reasoning.ThinkingStep;
import dev.hindsight.events.reasoning.TradingAttributes;
import dev.hindsight.testing.HindsightTestResource;
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
import java.util.List;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * Given events on hindsight.reasoning.v1 (real broker, real Avro serde and registry), when query-service projects
 * them into PostgreSQL, then the HTTP read model shows them: given events, then state.
 */
@QuarkusTest
@QuarkusTestResource(HindsightTestResource.class)
class SessionProjectionTest {

    private static final String TOPIC = "hindsight.reasoning.v1";
    private static final Instant T0 = Instant.parse("2025-10-02T10:00:00Z");

    @Test
    void messagesArrivingBeforeTheirSessionAreShownInIndexOrderWithStepsInOrder() {
        String sessionId = "s-" + UUID.randomUUID();
        publish(sessionId, message(2, MessageRole.ASSISTANT, "Bought NVDA.", List.of(
                step(0, StepType.REASONING, "Check cash."), step(1, StepType.TOOL, null),
                step(2, StepType.REASONING, "Enough cash."))), "tenant-a", UUID.randomUUID());
        publish(sessionId, message(0, MessageRole.USER, "Update today's positions.", List.of()), "tenant-a",
                UUID.randomUUID());
        publish(sessionId, started(), "tenant-a", UUID.randomUUID());
        publish(sessionId, message(1, MessageRole.TOOL, "{\"cash\": 10000}", List.of()), "tenant-a",
                UUID.randomUUID());

        JsonPath session = awaitSession(sessionId, TestTenants.TENANT_A, 3);

        assertThat(session.getString("kind")).isEqualTo("trading");
        assertThat(session.getString("trading.job_id")).isEqualTo("job-1");
        assertThat(session.getString("trading.date")).isEqualTo("2025-10-02");
        assertThat(session.getList("messages.message_index", Integer.class)).containsExactly(0, 1, 2);
        assertThat(session.getList("messages[2].thinking_steps.step_order", Integer.class)).containsExactly(0, 1, 2);
        assertThat(session.getList("messages[2].thinking_steps.step_type", String.class))
                .containsExactly("reasoning", "tool", "reasoning");
        assertThat(session.getString("messages[0].timestamp")).isEqualTo("2025-10-02T10:00:00Z");
        assertThat(session.getString("messages[2].thinking_steps[1].tool_arguments.date")).isEqualTo("2025-10-01");
        assertThat(session.getMap("messages[2].thinking_steps[0]")).doesNotContainKey("tool_name");

        // Older readers know only reasoning and tools: both are derived from the steps, and say so
        // (design.md § Backward compatibility).
        assertThat(session.getString("messages[2].reasoning")).isEqualTo("Check cash.\n\nEnough cash.");
        assertThat(session.getList("messages[2].tools.tool_name", String.class)).containsExactly("get_positions");
        assertThat(session.getString("messages[2].tools[0].tool_arguments.date")).isEqualTo("2025-10-01");
        assertThat(session.getBoolean("messages[2].reasoning_and_tools_derived")).isTrue();
        // A message without steps has none, not an empty list (design.md § Backward compatibility).
        assertThat(session.getMap("messages[0]")).doesNotContainKeys("thinking_steps", "reasoning", "tools",
                "reasoning_and_tools_derived");
    }

    @Test
    void chatAndDebugSessionsKeepTheirOwnAttributes() {
        String chatId = "chat-" + UUID.randomUUID();
        publish(chatId, SessionStarted.newBuilder().setKind(SessionKind.CHAT).setStartedAt(T0)
                .setChat(ChatAttributes.newBuilder().setAgent("agentos").setTitle("Python version").build())
                .build(), "tenant-a", UUID.randomUUID());
        String debugId = "debug-" + UUID.randomUUID();
        publish(debugId, SessionStarted.newBuilder().setKind(SessionKind.DEBUG).setStartedAt(T0)
                .setDebug(DebugAttributes.newBuilder().setDeveloperId("dev-7").setTaskId("BUG-42").build())
                .build(), "tenant-a", UUID.randomUUID());

        JsonPath chat = awaitSession(chatId, TestTenants.TENANT_A, 0);
        JsonPath debug = awaitSession(debugId, TestTenants.TENANT_A, 0);

        assertThat(chat.getString("kind")).isEqualTo("chat");
        assertThat(chat.getString("attributes.agent")).isEqualTo("agentos");
        assertThat(chat.getString("started_at")).isEqualTo("2025-10-02T10:00:00Z");
        assertThat(chat.getMap("attributes")).doesNotContainKey("model");
        assertThat(debug.getString("kind")).isEqualTo("debug");
        assertThat(debug.getString("attributes.task_id")).isEqualTo("BUG-42");
    }

    @Test
    void aSessionOfWhichOnlyActivitiesOrPositionsWereAcknowledgedIsShownWithThem() {
        // Its start and messages were refused (each request stands alone): what was acknowledged must be readable.
        String debugId = "only-activities-" + UUID.randomUUID();
        publish(debugId, dev.hindsight.events.reasoning.ActivityRecorded.newBuilder().setActivityId("ev-1")
                .setSequence(0).setTimestamp(T0).setActivity(dev.hindsight.events.reasoning.ThoughtLog.newBuilder()
                        .setThoughtText("Reading the stack trace.").build()).build(), "tenant-a", UUID.randomUUID());
        String tradingId = "only-positions-" + UUID.randomUUID();
        publish(tradingId, dev.hindsight.events.reasoning.PositionRecorded.newBuilder().setActionId(1)
                .setActionType("buy").setSymbol("NVDA").setAmount(10.0).build(), "tenant-a", UUID.randomUUID());

        JsonPath debug = awaitSession(debugId, TestTenants.TENANT_A, 0);
        JsonPath trading = awaitSession(tradingId, TestTenants.TENANT_A, 0);

        assertThat(debug.getList("activities.payload.thought_text", String.class))
                .containsExactly("Reading the stack trace.");
        assertThat(trading.getList("positions.symbol", String.class)).containsExactly("NVDA");
    }

    @Test
    void redeliveredEventChangesNothing() {
        String sessionId = "s-" + UUID.randomUUID();
        UUID eventId = UUID.randomUUID();
        ReasoningEvent first = event(sessionId, message(0, MessageRole.USER, "hello", List.of()), "tenant-a", eventId);
        TestTopics.write(TOPIC, sessionId, first);
        TestTopics.write(TOPIC, sessionId, first);
        publish(sessionId, message(1, MessageRole.ASSISTANT, "hi", List.of()), "tenant-a", UUID.randomUUID());

        JsonPath session = awaitSession(sessionId, TestTenants.TENANT_A, 2);

        assertThat(session.getInt("total_messages")).isEqualTo(2);
    }

    @Test
    void aConflictingMessageAtATakenIndexDoesNotReplaceTheFirst() {
        String sessionId = "s-" + UUID.randomUUID();
        publish(sessionId, message(0, MessageRole.USER, "original", List.of()), "tenant-a", UUID.randomUUID());
        publish(sessionId, message(0, MessageRole.USER, "rewritten", List.of()), "tenant-a", UUID.randomUUID());
        publish(sessionId, message(1, MessageRole.ASSISTANT, "reply", List.of()), "tenant-a", UUID.randomUUID());

        JsonPath session = awaitSession(sessionId, TestTenants.TENANT_A, 2);

        assertThat(session.getString("messages[0].content")).isEqualTo("original");
        assertThat(session.getInt("total_messages")).isEqualTo(2);
    }

    @Test
    void anotherTenantsSessionIsNotFound() {
        String sessionId = "s-" + UUID.randomUUID();
        publish(sessionId, started(), "tenant-a", UUID.randomUUID());
        awaitSession(sessionId, TestTenants.TENANT_A, 0);

        given().header("Authorization", TestTenants.TENANT_B.bearer())
                .when().get("/v1/sessions/" + sessionId)
                .then().statusCode(404).contentType("application/problem+json");
    }

    @Test
    void readingNeedsAKey() {
        given().when().get("/v1/sessions/anything")
                .then().statusCode(401).contentType("application/problem+json");
    }

    @Test
    void poisonEventIsDeadLetteredAndThePartitionKeepsMoving() {
        String sessionId = "s-" + UUID.randomUUID();
        TestTopics.writeRaw(TOPIC, sessionId, "not avro at all".getBytes(StandardCharsets.UTF_8));
        publish(sessionId, message(0, MessageRole.USER, "after the poison", List.of()), "tenant-a", UUID.randomUUID());

        awaitSession(sessionId, TestTenants.TENANT_A, 1);
        List<ConsumerRecord<String, ReasoningEvent>> deadLetters = TestTopics.readRecords(
                "hindsight.query.reasoning.dlq", record -> sessionId.equals(record.key()), 1, Duration.ofSeconds(30));
        assertThat(deadLetters).hasSize(1);
        assertThat(new String(deadLetters.get(0).headers().lastHeader("dead-letter-topic").value(),
                StandardCharsets.UTF_8)).isEqualTo(TOPIC);
    }

    private static JsonPath awaitSession(String sessionId, TestTenants persona, int messages) {
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> given()
                .header("Authorization", persona.bearer())
                .when().get("/v1/sessions/" + sessionId)
                .then().statusCode(200)
                .body("session_id", equalTo(sessionId))
                .body("messages", hasSize(messages)));
        return given().header("Authorization", persona.bearer()).when().get("/v1/sessions/" + sessionId)
                .then().extract().jsonPath();
    }

    private static void publish(String sessionId, Object payload, String tenant, UUID eventId) {
        TestTopics.write(TOPIC, sessionId, event(sessionId, payload, tenant, eventId));
    }

    private static ReasoningEvent event(String sessionId, Object payload, String tenant, UUID eventId) {
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        return ReasoningEvent.newBuilder()
                .setHeader(EventHeader.newBuilder().setEventId(eventId).setTenantId(tenant).setOccurredAt(now)
                        .setRecordedAt(now).setProducer(ProducerIdentity.newBuilder().setPrincipal("test").build())
                        .build())
                .setSessionId(sessionId)
                .setPayload(payload)
                .build();
    }

    private static SessionStarted started() {
        return SessionStarted.newBuilder().setKind(SessionKind.TRADING).setStartedAt(T0)
                .setTrading(TradingAttributes.newBuilder().setJobId("job-1").setDate(LocalDate.of(2025, 10, 2))
                        .setModel("gpt-5").build())
                .build();
    }

    private static MessageRecorded message(int index, MessageRole role, String content, List<ThinkingStep> steps) {
        return MessageRecorded.newBuilder().setMessageIndex(index).setRole(role).setContent(content)
                .setTimestamp(T0.plusSeconds(index)).setThinkingSteps(steps).build();
    }

    private static ThinkingStep step(int order, StepType type, String content) {
        return ThinkingStep.newBuilder().setStepOrder(order).setStepType(type).setContent(content)
                .setToolName(type == StepType.TOOL ? "get_positions" : null)
                .setToolArguments(type == StepType.TOOL ? "{\"date\":\"2025-10-01\"}" : null).build();
    }
}
