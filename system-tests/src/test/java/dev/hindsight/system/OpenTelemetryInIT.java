package dev.hindsight.system;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hindsight.system.RunningSystem.Service;
import dev.hindsight.testing.TestTenants;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.exporter.internal.otlp.traces.TraceRequestMarshaler;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import io.restassured.response.Response;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Agents instrumented with the real OpenTelemetry SDK export to ingest-service's {@code /otlp/v1/traces} as they would
 * to any OTLP backend (the SDK's exporter, http/protobuf with gzip; or OTLP/JSON, gzipped, as the SDK encodes it),
 * through the real broker and registry to query-service, which shows each agent's run as a session: with the GenAI
 * conventions' structured messages, with OpenInference's flattened ones, with the older per-message span events; and
 * the same run in any split and order, some spans sent twice, is always the same session.
 */
class OpenTelemetryInIT {

    private static final long MS = 1_000_000L;
    private static final AttributeKey<String> SERVICE_NAME = AttributeKey.stringKey("service.name");

    private static RunningSystem system;

    @BeforeAll
    static void startSystem() {
        system = RunningSystem.shared();
    }

    @Test
    void aGenAiAgentsRunIsASessionWithItsReasoningToolCallResultUsageAndLatency() {
        String conversation = "conv-" + UUID.randomUUID();
        String user = message("user", text("Why does the CSV export drop its last row?"));
        String call = message("assistant", "{\"type\":\"reasoning\",\"content\":\"The last row is lost: look at "
                + "how lines are split.\"}", "{\"type\":\"tool_call\",\"id\":\"call-1\",\"name\":\"search_code\","
                + "\"arguments\":{\"q\":\"split('\\\\n')\"}}");
        String answer = message("assistant", text("The split keeps an empty last field: use splitlines()."));
        long t0 = epochNanos();

        // Exported as the SDK's simple processor does: each span when it ends, so children before their parent.
        try (Agent agent = new Agent("csv-fixer", exporter())) {
            Span root = agent.start("invoke_agent csv-fixer", null, t0, SpanKind.INTERNAL, a -> a
                    .put("gen_ai.operation.name", "invoke_agent").put("gen_ai.conversation.id", conversation)
                    .put("gen_ai.agent.name", "csv-fixer"));
            agent.start("chat gpt-5", root, t0 + MS, SpanKind.CLIENT, a -> a.put("gen_ai.operation.name", "chat")
                    .put("gen_ai.request.model", "gpt-5").put("gen_ai.usage.input_tokens", 40L)
                    .put("gen_ai.usage.output_tokens", 12L)
                    .put("gen_ai.system_instructions", "[{\"type\":\"text\",\"content\":\"You fix bugs.\"}]")
                    .put("gen_ai.input.messages", "[" + user + "]")
                    .put("gen_ai.output.messages", "[" + call + "]")).end(t0 + 21 * MS, TimeUnit.NANOSECONDS);
            agent.start("execute_tool search_code", root, t0 + 22 * MS, SpanKind.INTERNAL, a -> a
                    .put("gen_ai.operation.name", "execute_tool").put("gen_ai.tool.name", "search_code")
                    .put("gen_ai.tool.call.id", "call-1").put("gen_ai.tool.call.result", "export.py:42 "
                            + "rows = text.split('\\n')")).end(t0 + 30 * MS, TimeUnit.NANOSECONDS);
            // This instrumentation records no tool message: the execution's span supplies the result.
            agent.start("chat gpt-5", root, t0 + 31 * MS, SpanKind.CLIENT, a -> a
                    .put("gen_ai.operation.name", "chat").put("gen_ai.response.model", "gpt-5-2025-08-07")
                    .put("gen_ai.usage.input_tokens", 90L).put("gen_ai.usage.output_tokens", 20L)
                    .put("gen_ai.input.messages", "[" + user + "," + call + "]")
                    .put("gen_ai.output.messages", "[" + answer + "]")).end(t0 + 60 * MS, TimeUnit.NANOSECONDS);
            root.end(t0 + 61 * MS, TimeUnit.NANOSECONDS);
        }

        JsonNode session = awaitSession(conversation, s -> s.path("messages").size() == 2
                && s.path("messages").path(1).path("thinking_steps").size() == 2
                && s.path("messages").path(1).path("thinking_steps").path(1).has("tool_result")
                && s.path("messages").path(1).has("usage")
                && s.path("messages").path(1).path("usage").path("input_tokens").asLong() == 130);
        assertThat(session.path("kind").asText()).isEqualTo("chat");
        assertThat(session.path("attributes").path("agent").asText()).isEqualTo("csv-fixer");
        assertThat(session.path("attributes").path("source").asText()).isEqualTo("opentelemetry");
        assertThat(session.path("labels").path("service.name").asText()).isEqualTo("csv-fixer");
        assertThat(session.path("total_messages").asInt()).isEqualTo(2);
        JsonNode messages = session.path("messages");
        assertThat(messages.path(0).path("role").asText()).isEqualTo("user");
        assertThat(messages.path(0).path("content").asText()).isEqualTo("Why does the CSV export drop its last row?");
        JsonNode reply = messages.path(1);
        assertThat(reply.path("role").asText()).isEqualTo("assistant");
        assertThat(reply.path("content").asText())
                .isEqualTo("The split keeps an empty last field: use splitlines().");
        JsonNode steps = reply.path("thinking_steps");
        assertThat(steps.path(0).path("step_order").asInt()).isZero();
        assertThat(steps.path(0).path("step_type").asText()).isEqualTo("reasoning");
        assertThat(steps.path(0).path("content").asText()).isEqualTo("The last row is lost: look at how lines are "
                + "split.");
        assertThat(steps.path(1).path("step_order").asInt()).isEqualTo(1);
        assertThat(steps.path(1).path("step_type").asText()).isEqualTo("tool");
        assertThat(steps.path(1).path("tool_name").asText()).isEqualTo("search_code");
        assertThat(steps.path(1).path("tool_arguments").path("q").asText()).isEqualTo("split('\\n')");
        assertThat(steps.path(1).path("tool_result").asText()).isEqualTo("export.py:42 rows = text.split('\\n')");
        JsonNode usage = reply.path("usage");
        assertThat(usage.path("input_tokens").asLong()).isEqualTo(130);
        assertThat(usage.path("output_tokens").asLong()).isEqualTo(32);
        assertThat(usage.path("latency_ms").asLong()).isEqualTo(20 + 29);
        assertThat(usage.path("model").asText()).isEqualTo("gpt-5-2025-08-07");
        assertThat(messages.path(0).has("usage")).isFalse();
    }

    @Test
    void anOpenInferenceAgentSendingOtlpJsonIsASessionUnderItsSessionId() throws IOException {
        String sessionId = "oi-" + UUID.randomUUID();
        long t0 = epochNanos();
        InMemorySpanExporter collected = InMemorySpanExporter.create();
        List<SpanData> spans;
        try (Agent agent = new Agent("weather-bot", collected)) {
            Span chain = agent.start("agent", null, t0, SpanKind.INTERNAL, a -> a
                    .put("openinference.span.kind", "AGENT").put("session.id", sessionId));
            agent.start("ChatCompletion", chain, t0 + MS, SpanKind.CLIENT, a -> a
                    .put("openinference.span.kind", "LLM").put("session.id", sessionId)
                    .put("llm.model_name", "claude-sonnet-4").put("llm.token_count.prompt", 15L)
                    .put("llm.token_count.completion", 5L)
                    .put("llm.input_messages.0.message.role", "system")
                    .put("llm.input_messages.0.message.content", "You answer about the weather.")
                    .put("llm.input_messages.1.message.role", "user")
                    .put("llm.input_messages.1.message.content", "Weather in Paris?")
                    .put("llm.output_messages.0.message.role", "assistant")
                    .put("llm.output_messages.0.message.tool_calls.0.tool_call.id", "t1")
                    .put("llm.output_messages.0.message.tool_calls.0.tool_call.function.name", "get_weather")
                    .put("llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments",
                            "{\"city\":\"Paris\"}")).end(t0 + 11 * MS, TimeUnit.NANOSECONDS);
            agent.start("get_weather", chain, t0 + 12 * MS, SpanKind.INTERNAL, a -> a
                    .put("openinference.span.kind", "TOOL").put("tool.name", "get_weather")
                    .put("input.value", "{\"city\":\"Paris\"}").put("output.value", "18°C, sunny"))
                    .end(t0 + 15 * MS, TimeUnit.NANOSECONDS);
            agent.start("ChatCompletion", chain, t0 + 16 * MS, SpanKind.CLIENT, a -> a
                    .put("openinference.span.kind", "LLM").put("session.id", sessionId)
                    .put("llm.model_name", "claude-sonnet-4").put("llm.token_count.prompt", 40L)
                    .put("llm.token_count.completion", 9L)
                    .put("llm.input_messages.0.message.role", "user")
                    .put("llm.input_messages.0.message.content", "Weather in Paris?")
                    .put("llm.input_messages.1.message.role", "assistant")
                    .put("llm.input_messages.1.message.tool_calls.0.tool_call.id", "t1")
                    .put("llm.input_messages.1.message.tool_calls.0.tool_call.function.name", "get_weather")
                    .put("llm.input_messages.1.message.tool_calls.0.tool_call.function.arguments",
                            "{\"city\":\"Paris\"}")
                    .put("llm.input_messages.2.message.role", "tool")
                    .put("llm.input_messages.2.message.tool_call_id", "t1")
                    .put("llm.input_messages.2.message.content", "18°C, sunny")
                    .put("llm.output_messages.0.message.role", "assistant")
                    .put("llm.output_messages.0.message.content", "It is 18°C and sunny in Paris."))
                    .end(t0 + 30 * MS, TimeUnit.NANOSECONDS);
            chain.end(t0 + 31 * MS, TimeUnit.NANOSECONDS);
            spans = collected.getFinishedSpanItems();   // before closing: shutting down forgets them
        }
        // OTLP/JSON as the SDK encodes it (hex ids, lowerCamelCase), gzipped: the Java exporter has no http/json.
        ByteArrayOutputStream json = new ByteArrayOutputStream();
        TraceRequestMarshaler.create(spans).writeJsonTo(json);
        Response answer = given().baseUri(system.url(Service.INGEST))
                .header("Authorization", TestTenants.TENANT_A.bearer()).contentType("application/json")
                .header("Content-Encoding", "gzip").body(gzip(json.toByteArray()))
                .when().post("/otlp/v1/traces");
        assertThat(answer.statusCode()).as(answer.body().asString()).isEqualTo(200);
        assertThat(answer.body().asString()).isEqualTo("{}");

        JsonNode session = awaitSession(sessionId, s -> s.path("messages").size() == 2
                && s.path("messages").path(1).path("content").asText().startsWith("It is 18°C"));
        JsonNode reply = session.path("messages").path(1);
        assertThat(session.path("messages").path(0).path("content").asText()).isEqualTo("Weather in Paris?");
        assertThat(reply.path("thinking_steps")).hasSize(1);
        JsonNode tool = reply.path("thinking_steps").path(0);
        assertThat(tool.path("step_type").asText()).isEqualTo("tool");
        assertThat(tool.path("tool_name").asText()).isEqualTo("get_weather");
        assertThat(tool.path("tool_arguments").path("city").asText()).isEqualTo("Paris");
        assertThat(tool.path("tool_result").asText()).isEqualTo("18°C, sunny");
        assertThat(reply.path("usage").path("input_tokens").asLong()).isEqualTo(55);
        assertThat(reply.path("usage").path("output_tokens").asLong()).isEqualTo(14);
        assertThat(reply.path("usage").path("model").asText()).isEqualTo("claude-sonnet-4");
        assertThat(session.path("labels").path("service.name").asText()).isEqualTo("weather-bot");
    }

    @Test
    void anAgentOnTheOlderEventBasedGenAiMessagesIsASessionUnderItsTraceId() {
        long t0 = epochNanos();
        String trace;
        try (Agent agent = new Agent("legacy-bot", exporter())) {
            Span chat = agent.start("chat gpt-4o", null, t0, SpanKind.CLIENT, a -> a
                    .put("gen_ai.system", "openai").put("gen_ai.operation.name", "chat")
                    .put("gen_ai.request.model", "gpt-4o").put("gen_ai.usage.input_tokens", 9L)
                    .put("gen_ai.usage.output_tokens", 3L));
            chat.addEvent("gen_ai.system.message", Attributes.of(AttributeKey.stringKey("content"), "Be brief."),
                    t0, TimeUnit.NANOSECONDS);
            chat.addEvent("gen_ai.user.message", Attributes.of(AttributeKey.stringKey("content"),
                    "What is 2 + 2?"), t0, TimeUnit.NANOSECONDS);
            chat.addEvent("gen_ai.choice", Attributes.builder().put("index", 0L).put("finish_reason", "stop")
                    .put("message", "{\"role\":\"assistant\",\"content\":\"4.\"}").build(), t0 + 5 * MS,
                    TimeUnit.NANOSECONDS);
            trace = chat.getSpanContext().getTraceId();
            chat.end(t0 + 5 * MS, TimeUnit.NANOSECONDS);
        }

        JsonNode session = awaitSession(trace, s -> s.path("messages").size() == 2);
        assertThat(session.path("messages").path(0).path("role").asText()).isEqualTo("user");
        assertThat(session.path("messages").path(0).path("content").asText()).isEqualTo("What is 2 + 2?");
        assertThat(session.path("messages").path(1).path("content").asText()).isEqualTo("4.");
        assertThat(session.path("messages").path(1).path("usage").path("latency_ms").asLong()).isEqualTo(5);
        assertThat(session.path("attributes").path("model").asText()).isEqualTo("gpt-4o");
    }

    @Test
    void theSameFiftySpanRunSplitAndShuffledWithCopiesIsAlwaysTheSameSession() {
        long t0 = epochNanos();
        Random random = new Random(Long.getLong("hindsight.test.seed", System.nanoTime()));
        long seed = random.nextLong();
        String reference = "run-" + UUID.randomUUID();
        List<SpanData> inOrder = fiftySpanRun(reference, t0);
        assertThat(inOrder).hasSize(50);
        export(List.of(inOrder));
        JsonNode expected = awaitSession(reference, s -> s.path("messages").size() == 2
                && s.path("messages").path(1).path("thinking_steps").size() == 48
                && s.path("messages").path(1).path("content").asText().equals("All 24 files checked."));

        for (int variant = 0; variant < 3; variant++) {
            String conversation = "run-" + UUID.randomUUID();
            List<SpanData> spans = new ArrayList<>(fiftySpanRun(conversation, t0));
            Random shuffle = new Random(seed + variant);
            // Some spans twice (an exporter's retry), the whole in random order, cut into random export requests.
            for (int copy = 0; copy < 8; copy++) {
                spans.add(spans.get(shuffle.nextInt(50)));
            }
            Collections.shuffle(spans, shuffle);
            List<List<SpanData>> requests = new ArrayList<>();
            for (int from = 0; from < spans.size(); ) {
                int to = Math.min(spans.size(), from + 1 + shuffle.nextInt(12));
                requests.add(spans.subList(from, to));
                from = to;
            }
            export(requests);
            JsonNode actual = awaitSession(conversation, s -> Wire.same(expected.path("messages"),
                    s.path("messages")));
            assertThat(actual.path("messages")).as("seed %d, variant %d", seed, variant)
                    .isEqualTo(expected.path("messages"));
            assertThat(actual.path("started_at")).isEqualTo(expected.path("started_at"));
            assertThat(actual.path("total_messages")).isEqualTo(expected.path("total_messages"));
        }
    }

    /**
     * An agent's run of 50 spans: the agent's span, 24 model calls each reasoning and calling a tool, the 24 tool
     * executions, and the final answer; each call's input repeating the conversation so far.
     */
    private static List<SpanData> fiftySpanRun(String conversation, long t0) {
        InMemorySpanExporter collected = InMemorySpanExporter.create();
        try (Agent agent = new Agent("file-checker", collected)) {
            Span root = agent.start("invoke_agent", null, t0, SpanKind.INTERNAL, a -> a
                    .put("gen_ai.operation.name", "invoke_agent").put("gen_ai.conversation.id", conversation));
            List<String> said = new ArrayList<>(List.of(message("user", text("Check all 24 files."))));
            long at = t0 + MS;
            for (int i = 0; i < 24; i++) {
                String call = message("assistant", "{\"type\":\"reasoning\",\"content\":\"File " + i + " next.\"}",
                        "{\"type\":\"tool_call\",\"id\":\"c" + i + "\",\"name\":\"lint\",\"arguments\":{\"file\":"
                                + i + "}}");
                String input = "[" + String.join(",", said) + "]";
                agent.start("chat", root, at, SpanKind.CLIENT, a -> a.put("gen_ai.operation.name", "chat")
                        .put("gen_ai.request.model", "gpt-5").put("gen_ai.usage.input_tokens", 100L)
                        .put("gen_ai.usage.output_tokens", 10L).put("gen_ai.input.messages", input)
                        .put("gen_ai.output.messages", "[" + call + "]")).end(at + 5 * MS, TimeUnit.NANOSECONDS);
                int file = i;
                agent.start("execute_tool lint", root, at + 6 * MS, SpanKind.INTERNAL, a -> a
                        .put("gen_ai.operation.name", "execute_tool").put("gen_ai.tool.name", "lint")
                        .put("gen_ai.tool.call.id", "c" + file).put("gen_ai.tool.call.result", "file " + file
                                + ": clean")).end(at + 8 * MS, TimeUnit.NANOSECONDS);
                said.add(call);
                said.add(message("tool", "{\"type\":\"tool_call_response\",\"id\":\"c" + i
                        + "\",\"response\":\"file " + i + ": clean\"}"));
                at += 10 * MS;
            }
            String input = "[" + String.join(",", said) + "]";
            agent.start("chat", root, at, SpanKind.CLIENT, a -> a.put("gen_ai.operation.name", "chat")
                    .put("gen_ai.request.model", "gpt-5").put("gen_ai.input.messages", input)
                    .put("gen_ai.output.messages", "[" + message("assistant", text("All 24 files checked.")) + "]"))
                    .end(at + 5 * MS, TimeUnit.NANOSECONDS);
            root.end(at + 6 * MS, TimeUnit.NANOSECONDS);
            return collected.getFinishedSpanItems();   // before closing: shutting down forgets them
        }
    }

    /** Each list one export request, sent by the SDK's OTLP/HTTP exporter (protobuf, gzip). */
    private static void export(List<List<SpanData>> requests) {
        OtlpHttpSpanExporter exporter = exporter();
        try {
            for (List<SpanData> request : requests) {
                CompletableResultCode result = exporter.export(request).join(30, TimeUnit.SECONDS);
                assertThat(result.isSuccess()).as("export: %s", result.getFailureThrowable()).isTrue();
            }
        } finally {
            exporter.shutdown().join(10, TimeUnit.SECONDS);
        }
    }

    private static OtlpHttpSpanExporter exporter() {
        // As OTEL_EXPORTER_OTLP_ENDPOINT=<ingest>/otlp and OTEL_EXPORTER_OTLP_HEADERS=Authorization=Bearer ... set it.
        return OtlpHttpSpanExporter.builder().setEndpoint(system.url(Service.INGEST) + "/otlp/v1/traces")
                .setCompression("gzip").addHeader("Authorization", TestTenants.TENANT_A.bearer()).build();
    }

    private static JsonNode awaitSession(String sessionId, java.util.function.Predicate<JsonNode> complete) {
        return SessionAwait.until(system, sessionId, complete, "spans exported");
    }

    private static long epochNanos() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }

    private static String message(String role, String... parts) {
        return "{\"role\":\"" + role + "\",\"parts\":[" + String.join(",", parts) + "]}";
    }

    private static String text(String content) {
        return "{\"type\":\"text\",\"content\":\"" + content + "\"}";
    }

    private static byte[] gzip(byte[] bytes) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream zip = new GZIPOutputStream(out)) {
            zip.write(bytes);
        }
        return out.toByteArray();
    }

    /**
     * An instrumented agent: the SDK with a resource naming the service, its spans exported as each ends; closing
     * flushes, and fails the test if an export failed.
     */
    private static final class Agent implements AutoCloseable {
        private final SdkTracerProvider provider;
        private final Tracer tracer;

        Agent(String service, SpanExporter exporter) {
            provider = SdkTracerProvider.builder().setResource(Resource.create(Attributes.of(SERVICE_NAME, service)))
                    .addSpanProcessor(SimpleSpanProcessor.create(exporter)).build();
            tracer = provider.get("hindsight-system-test");
        }

        Span start(String name, Span parent, long startNanos, SpanKind kind, Consumer<AttributesBuilder> attributes) {
            AttributesBuilder builder = Attributes.builder();
            attributes.accept(builder);
            var span = tracer.spanBuilder(name).setSpanKind(kind).setAllAttributes(builder.build())
                    .setStartTimestamp(startNanos, TimeUnit.NANOSECONDS);
            span.setParent(parent == null ? Context.root() : Context.root().with(parent));
            return span.startSpan();
        }

        @Override
        public void close() {
            CompletableResultCode flushed = provider.forceFlush().join(30, TimeUnit.SECONDS);
            provider.shutdown().join(10, TimeUnit.SECONDS);
            assertThat(flushed.isSuccess()).as("every span exported").isTrue();
        }
    }
}
