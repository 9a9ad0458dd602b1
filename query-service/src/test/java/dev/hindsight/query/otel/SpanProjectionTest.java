package dev.hindsight.query.otel;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hindsight.events.EventHeader;
import dev.hindsight.events.ProducerIdentity;
import dev.hindsight.events.spans.LogRecorded;
import dev.hindsight.events.spans.SpanConvention;
import dev.hindsight.events.spans.SpanEvent;
import dev.hindsight.events.spans.SpanRecorded;
import dev.hindsight.testing.HindsightTestResource;
import dev.hindsight.testing.TestTenants;
import dev.hindsight.testing.TestTopics;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;

/**
 * Given spans on hindsight.spans.v1 (real broker, registry and PostgreSQL), when query-service assembles them, then
 * GET /v1/sessions/{id} shows the session they make: whatever order and however split they arrived.
 */
@QuarkusTest
@QuarkusTestResource(HindsightTestResource.class)
class SpanProjectionTest {

    private static final String TOPIC = "hindsight.spans.v1";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long T0 = Instant.parse("2026-11-20T09:00:00Z").toEpochMilli() * 1_000_000L;
    private static final long MS = 1_000_000L;
    private static final String USER = """
            {"role":"user","parts":[{"type":"text","content":"Why does the export drop its last row?"}]}""";
    private static final String CALL = """
            {"role":"assistant","parts":[{"type":"reasoning","content":"Look at how lines are split."},\
            {"type":"tool_call","id":"call-1","name":"search","arguments":{"q":"split"}}]}""";
    private static final String ANSWER = """
            {"role":"assistant","parts":[{"type":"text","content":"Use splitlines()."}]}""";

    @Test
    void spansArrivingChildrenFirstAndTwiceAreOneSessionWithOrderedStepsUsageAndLatency() {
        String trace = trace();
        String conversation = "conv-" + UUID.randomUUID();
        SpanEvent agent = span(trace, "0000000000000001", null, 0, 100, attributes("gen_ai.operation.name",
                "invoke_agent", "gen_ai.conversation.id", conversation, "gen_ai.agent.name", "bug-hunter"));
        SpanEvent firstCall = span(trace, "0000000000000002", "0000000000000001", 1, 21, attributes(
                "gen_ai.operation.name", "chat", "gen_ai.request.model", "gpt-5", "gen_ai.usage.input_tokens", 40,
                "gen_ai.usage.output_tokens", 12, "gen_ai.input.messages", "[" + USER + "]",
                "gen_ai.output.messages", "[" + CALL + "]"));
        SpanEvent tool = span(trace, "0000000000000003", "0000000000000001", 22, 30, attributes(
                "gen_ai.operation.name", "execute_tool", "gen_ai.tool.name", "search", "gen_ai.tool.call.id",
                "call-1", "gen_ai.tool.call.result", "3 hits in csv.py"));
        SpanEvent lastCall = span(trace, "0000000000000004", "0000000000000001", 31, 60, attributes(
                "gen_ai.operation.name", "chat", "gen_ai.response.model", "gpt-5-2025", "gen_ai.usage.input_tokens",
                90, "gen_ai.usage.output_tokens", 20, "gen_ai.input.messages", "[" + USER + "," + CALL + "]",
                "gen_ai.output.messages", "[" + ANSWER + "]"));

        // The last call first, the root last, a copy of the tool's span in between: as exporters deliver them.
        for (SpanEvent span : List.of(lastCall, tool, firstCall, tool, agent)) {
            TestTopics.write(TOPIC, trace, span);
        }

        JsonPath session = awaitSession(conversation, 2, "gpt-5-2025");
        assertThat(session.getString("kind")).isEqualTo("chat");
        assertThat(session.getString("attributes.source")).isEqualTo("opentelemetry");
        assertThat(session.getString("attributes.agent")).isEqualTo("bug-hunter");
        assertThat(session.getString("labels.'service.name'")).isEqualTo("support-agent");
        assertThat(session.getString("started_at")).isEqualTo("2026-11-20T09:00:00Z");
        assertThat(session.getInt("total_messages")).isEqualTo(2);
        assertThat(session.getString("messages[0].role")).isEqualTo("user");
        assertThat(session.getString("messages[0].content")).isEqualTo("Why does the export drop its last row?");
        assertThat(session.getString("messages[1].content")).isEqualTo("Use splitlines().");
        assertThat(session.getList("messages[1].thinking_steps.step_type", String.class))
                .containsExactly("reasoning", "tool");
        assertThat(session.getList("messages[1].thinking_steps.step_order", Integer.class)).containsExactly(0, 1);
        assertThat(session.getString("messages[1].thinking_steps[1].tool_name")).isEqualTo("search");
        assertThat(session.getString("messages[1].thinking_steps[1].tool_arguments.q")).isEqualTo("split");
        assertThat(session.getString("messages[1].thinking_steps[1].tool_result")).isEqualTo("3 hits in csv.py");
        assertThat(session.getLong("messages[1].usage.input_tokens")).isEqualTo(130);
        assertThat(session.getLong("messages[1].usage.output_tokens")).isEqualTo(32);
        assertThat(session.getLong("messages[1].usage.latency_ms")).isEqualTo(20 + 29);
        assertThat(session.getString("messages[1].usage.model")).isEqualTo("gpt-5-2025");
        assertThat(session.getMap("messages[0]")).doesNotContainKey("usage");
    }

    @Test
    void aConversationIdSeenLateMovesTheTraceToItsSessionAndTurnsInOtherTracesJoinIt() {
        String firstTurn = trace();
        String secondTurn = trace();
        String conversation = "conv-" + UUID.randomUUID();
        String reply = """
                {"role":"assistant","parts":[{"type":"text","content":"Done."}]}""";
        String again = """
                {"role":"user","parts":[{"type":"text","content":"And the header row?"}]}""";
        // The first turn's model call names no conversation: until its root span comes, it is a session of its own.
        TestTopics.write(TOPIC, firstTurn, span(firstTurn, "0000000000000002", "0000000000000001", 1, 10,
                attributes("gen_ai.operation.name", "chat", "gen_ai.input.messages", "[" + USER + "]",
                        "gen_ai.output.messages", "[" + reply + "]")));
        awaitSession(firstTurn, 2, null);

        TestTopics.write(TOPIC, firstTurn, span(firstTurn, "0000000000000001", null, 0, 11, attributes(
                "gen_ai.operation.name", "invoke_agent", "gen_ai.conversation.id", conversation)));
        TestTopics.write(TOPIC, secondTurn, span(secondTurn, "0000000000000003", null, 1_000, 1_010, attributes(
                "gen_ai.operation.name", "chat", "gen_ai.conversation.id", conversation, "gen_ai.input.messages",
                "[" + USER + "," + reply + "," + again + "]", "gen_ai.output.messages", "[" + reply + "]")));

        JsonPath session = awaitSession(conversation, 4, null);
        assertThat(session.getList("messages.content", String.class)).containsExactly(
                "Why does the export drop its last row?", "Done.", "And the header row?", "Done.");
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> given()
                .header("Authorization", TestTenants.TENANT_A.bearer())
                .when().get("/v1/sessions/" + firstTurn)
                .then().statusCode(404));
    }

    @Test
    void openInferenceSpansAreASessionToo() {
        String trace = trace();
        String session = "oi-" + UUID.randomUUID();
        Map<String, Object> llm = new LinkedHashMap<>();
        llm.put("openinference.span.kind", "LLM");
        llm.put("session.id", session);
        llm.put("llm.model_name", "claude-sonnet");
        llm.put("llm.token_count.prompt", 15);
        llm.put("llm.token_count.completion", 5);
        llm.put("llm.input_messages.0.message.role", "user");
        llm.put("llm.input_messages.0.message.content", "Weather in Paris?");
        llm.put("llm.output_messages.0.message.role", "assistant");
        llm.put("llm.output_messages.0.message.content", "18°C, sunny.");
        TestTopics.write(TOPIC, trace, span(trace, "00000000000000a1", null, 0, 30, llm, SpanConvention.OPENINFERENCE));

        JsonPath read = awaitSession(session, 2, "claude-sonnet");
        assertThat(read.getString("messages[1].content")).isEqualTo("18°C, sunny.");
        assertThat(read.getLong("messages[1].usage.input_tokens")).isEqualTo(15);
    }

    @Test
    void genAiEventsSentAsLogRecordsBeforeTheirSpansAreTheSessionsMessagesAndStepsOnceTheSpansArrive() {
        String trace = trace();
        String conversation = "conv-" + UUID.randomUUID();
        // The OpenAI client's official instrumentation: spans with model and usage only, what was said as log
        // records tied to the call's span. Exporters batch logs and spans apart: here every event comes first, one
        // of them twice.
        List<SpanEvent> logs = List.of(
                log(trace, "0000000000000002", "gen_ai.user.message", 1, Map.of("content", "Is 2027 a leap year?")),
                log(trace, "0000000000000002", "gen_ai.choice", 20, Map.of("index", 0, "finish_reason",
                        "tool_calls", "message", Map.of("role", "assistant", "tool_calls", List.of(Map.of(
                                "id", "call-7", "type", "function", "function", Map.of("name", "calendar",
                                        "arguments", "{\"year\":2027}")))))),
                log(trace, "0000000000000004", "gen_ai.user.message", 31, 0, Map.of("content", "Is 2027 a leap year?")),
                log(trace, "0000000000000004", "gen_ai.assistant.message", 31, 1, Map.of("tool_calls", List.of(Map.of(
                        "id", "call-7", "type", "function", "function", Map.of("name", "calendar",
                                "arguments", "{\"year\":2027}"))))),
                log(trace, "0000000000000004", "gen_ai.tool.message", 31, 2, Map.of("id", "call-7", "content",
                        "365 days")),
                log(trace, "0000000000000004", "gen_ai.choice", 59, Map.of("index", 0, "finish_reason", "stop",
                        "message", Map.of("role", "assistant", "content", "No: 2027 has 365 days."))));
        for (SpanEvent log : logs) {
            TestTopics.write(TOPIC, trace, log);
        }
        TestTopics.write(TOPIC, trace, logs.get(1));
        TestTopics.write(TOPIC, trace, span(trace, "0000000000000001", null, 0, 100, attributes(
                "gen_ai.operation.name", "invoke_agent", "gen_ai.conversation.id", conversation)));
        TestTopics.write(TOPIC, trace, span(trace, "0000000000000002", "0000000000000001", 1, 21, attributes(
                "gen_ai.operation.name", "chat", "gen_ai.system", "openai", "gen_ai.request.model", "gpt-4o-mini",
                "gen_ai.usage.input_tokens", 30, "gen_ai.usage.output_tokens", 9)));
        TestTopics.write(TOPIC, trace, span(trace, "0000000000000003", "0000000000000001", 22, 30, attributes(
                "gen_ai.operation.name", "execute_tool", "gen_ai.tool.name", "calendar", "gen_ai.tool.call.id",
                "call-7", "gen_ai.tool.call.result", "365 days")));
        TestTopics.write(TOPIC, trace, span(trace, "0000000000000004", "0000000000000001", 31, 60, attributes(
                "gen_ai.operation.name", "chat", "gen_ai.system", "openai", "gen_ai.request.model", "gpt-4o-mini",
                "gen_ai.usage.input_tokens", 50, "gen_ai.usage.output_tokens", 11)));

        JsonPath session = awaitSession(conversation, 2, "gpt-4o-mini");
        assertThat(session.getList("messages.role", String.class)).containsExactly("user", "assistant");
        assertThat(session.getString("messages[0].content")).isEqualTo("Is 2027 a leap year?");
        assertThat(session.getString("messages[1].content")).isEqualTo("No: 2027 has 365 days.");
        assertThat(session.getList("messages[1].thinking_steps.step_type", String.class)).containsExactly("tool");
        assertThat(session.getString("messages[1].thinking_steps[0].tool_name")).isEqualTo("calendar");
        assertThat(session.getInt("messages[1].thinking_steps[0].tool_arguments.year")).isEqualTo(2027);
        assertThat(session.getString("messages[1].thinking_steps[0].tool_result")).isEqualTo("365 days");
        assertThat(session.getLong("messages[1].usage.input_tokens")).isEqualTo(80);
    }

    @Test
    void theOperationDetailsEventCompletesItsSpansAttributes() {
        String trace = trace();
        String conversation = "conv-" + UUID.randomUUID();
        TestTopics.write(TOPIC, trace, span(trace, "0000000000000002", null, 1, 21, attributes(
                "gen_ai.operation.name", "chat", "gen_ai.conversation.id", conversation, "gen_ai.provider.name",
                "openai", "gen_ai.request.model", "gpt-5")));
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("gen_ai.input.messages", List.of(Map.of("role", "user", "parts", List.of(Map.of("type", "text",
                "content", "Name a prime above 100.")))));
        details.put("gen_ai.output.messages", List.of(Map.of("role", "assistant", "parts", List.of(Map.of("type",
                "text", "content", "101.")))));
        TestTopics.write(TOPIC, trace, log(trace, "0000000000000002", SpanLogs.OPERATION_DETAILS, 21, 0, null,
                details));

        JsonPath session = awaitSession(conversation, 2, "gpt-5");
        assertThat(session.getList("messages.content", String.class))
                .containsExactly("Name a prime above 100.", "101.");
    }

    private static JsonPath awaitSession(String sessionId, int messages, String model) {
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> given()
                .header("Authorization", TestTenants.TENANT_A.bearer())
                .when().get("/v1/sessions/" + sessionId)
                .then().statusCode(200)
                .body("session_id", equalTo(sessionId))
                .body("messages", hasSize(messages))
                .body("attributes.model", equalTo(model)));
        return given().header("Authorization", TestTenants.TENANT_A.bearer()).when().get("/v1/sessions/" + sessionId)
                .then().extract().jsonPath();
    }

    private static SpanEvent log(String trace, String spanId, String name, long atMs, Map<String, Object> body) {
        return log(trace, spanId, name, atMs, 0, body);
    }

    /** A call's input messages often share one time: their position in the export orders them. */
    private static SpanEvent log(String trace, String spanId, String name, long atMs, int position,
            Map<String, Object> body) {
        return log(trace, spanId, name, atMs, position, body, Map.of("event.name", name));
    }

    private static SpanEvent log(String trace, String spanId, String name, long atMs, int position,
            Map<String, Object> body, Map<String, Object> attributes) {
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        try {
            String bodyJson = body == null ? null : JSON.writeValueAsString(body);
            return SpanEvent.newBuilder()
                    .setHeader(EventHeader.newBuilder()
                            .setEventId(UUID.nameUUIDFromBytes((trace + "/" + spanId + "/" + name + "/" + atMs + "/"
                                    + position + "/" + bodyJson).getBytes(StandardCharsets.UTF_8)))
                            .setTenantId("tenant-a").setOccurredAt(now).setRecordedAt(now)
                            .setProducer(ProducerIdentity.newBuilder().setPrincipal("test").build()).build())
                    .setTraceId(trace)
                    .setPayload(LogRecorded.newBuilder().setSpanId(spanId).setEventName(name)
                            .setTimeUnixNano(T0 + atMs * MS).setPosition(position).setBody(bodyJson)
                            .setAttributes(JSON.writeValueAsString(attributes))
                            .setResourceAttributes("{\"service.name\":\"support-agent\"}").build())
                    .build();
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String trace() {
        byte[] id = new byte[16];
        ThreadLocalRandom.current().nextBytes(id);
        return HexFormat.of().formatHex(id);
    }

    private static Map<String, Object> attributes(Object... pairs) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            map.put((String) pairs[i], pairs[i + 1]);
        }
        return map;
    }

    private static SpanEvent span(String trace, String spanId, String parent, long startMs, long endMs,
            Map<String, Object> attributes) {
        return span(trace, spanId, parent, startMs, endMs, attributes, SpanConvention.GEN_AI);
    }

    private static SpanEvent span(String trace, String spanId, String parent, long startMs, long endMs,
            Map<String, Object> attributes, SpanConvention convention) {
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        try {
            return SpanEvent.newBuilder()
                    .setHeader(EventHeader.newBuilder()
                            // As ingest derives it: a span exported twice is one event.
                            .setEventId(UUID.nameUUIDFromBytes((trace + "/" + spanId).getBytes(StandardCharsets.UTF_8)))
                            .setTenantId("tenant-a").setOccurredAt(now).setRecordedAt(now)
                            .setProducer(ProducerIdentity.newBuilder().setPrincipal("test").build()).build())
                    .setTraceId(trace)
                    .setPayload(SpanRecorded.newBuilder().setSpanId(spanId).setParentSpanId(parent)
                            .setName(String.valueOf(attributes.getOrDefault("gen_ai.operation.name", "llm")))
                            .setKind("CLIENT").setConvention(convention)
                            .setStartTimeUnixNano(T0 + startMs * MS).setEndTimeUnixNano(T0 + endMs * MS)
                            .setStatusCode("UNSET").setAttributes(JSON.writeValueAsString(attributes))
                            .setResourceAttributes("{\"service.name\":\"support-agent\"}").build())
                    .build();
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
