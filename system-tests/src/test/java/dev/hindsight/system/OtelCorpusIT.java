package dev.hindsight.system;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hindsight.system.RunningSystem.Service;
import dev.hindsight.testing.TestTenants;
import io.restassured.response.Response;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What real instrumentations export (the corpus {@code tools/otel-capture} records: OpenTelemetry's OpenAI
 * instrumentation with content as log events, OpenInference's OpenAI and LangChain instrumentations, and a framework
 * that writes today's GenAI conventions itself, content as attributes, with memory operations), replayed into
 * ingest-service's {@code /otlp/v1/traces} and {@code /otlp/v1/logs} as exporters deliver it at their worst: every
 * span, and each span's events as one export held them, in its own place in a shuffled order, split across requests,
 * some sent twice, the root span that names the conversation last. Each run assembles into exactly the session the
 * agent had: its messages, tool steps with their results (a sub-agent's named after it), token usage, and the tree of
 * agents when agents ran inside the agent, each with its task and answer. The shuffle's seed is in every failure's
 * description; set {@code -Dotel.corpus.seed=<seed>} to replay one.
 */
class OtelCorpusIT {

    private static final long SEED = Long.getLong("otel.corpus.seed", new Random().nextLong());

    private static RunningSystem system;

    @BeforeAll
    static void startSystem() {
        system = RunningSystem.shared();
    }

    /**
     * A message of the expected session: a tool step is {@code name -> result} ({@code memory name -> result} for a
     * memory operation, {@code [agent] ...} for a sub-agent's); {@code details} what else an answer keeps
     * ({@link #details}).
     */
    private record Expected(String role, String content, List<String> tools, Long inputTokens, Long outputTokens,
            String details) {

        static Expected user(String content) {
            return new Expected("user", content, List.of(), null, null, null);
        }

        static Expected answer(String content, long inputTokens, long outputTokens, String details, String... tools) {
            return new Expected("assistant", content, List.of(tools), inputTokens, outputTokens, details);
        }
    }

    private static final String FRIENDLY = "instructions: You are a friendly assistant. Keep answers short.";
    private static final String ONCALL_ANSWER = "Last time lowering max.poll.records to 200 brought the lag back under"
            + " 1k; try that before adding consumers.";
    private static final String TRAVEL = "instructions: You are a travel assistant. Use the tools for live data and"
            + " answer in one sentence.";

    private static String weather(String city, int celsius, String conditions) {
        return "get_weather -> {\"city\":\"" + city + "\",\"temperature_c\":" + celsius + ",\"conditions\":\""
                + conditions + "\"}";
    }

    private static final String FINDINGS = "Consumer lag rose to 120k messages after the 2.3 deploy and fell back under"
            + " 1k once max.poll.records was lowered to 200.";
    private static final String DRAFT = "After the 2.3 deploy, Kafka consumer lag climbed to 120k messages. Lowering"
            + " max.poll.records to 200 brought it back under 1k.";

    static Stream<Arguments> corpus() {
        String paris = weather("Paris", 18, "light rain");
        return Stream.concat(withoutAgents(paris).map(args -> Arguments.of(args.get()[0], args.get()[1], List.of())),
                Stream.of(Arguments.of("otel-supervisor-two-workers", List.of(
                        Expected.user("Write a two-sentence incident note about the Kafka consumer lag after the 2.3"
                                + " deploy."),
                        Expected.answer("Here is the incident note: " + DRAFT, 142 + 263, 188 + 93,
                                "instructions: You are a supervisor. Delegate research and writing to your workers,"
                                        + " then answer.",
                                "delegate_to_researcher -> " + FINDINGS, "delegate_to_writer -> " + DRAFT,
                                "[researcher] search_notes -> {\"query\":\"consumer lag 2.3 deploy\",\"passages\":"
                                        + "[\"Kafka consumer lag rose to 120k messages after the 2.3 deploy.\",\"Lag"
                                        + " fell back under 1k once max.poll.records was lowered to 200.\"]}",
                                "[writer] count_words -> {\"words\":20}")),
                        List.of("supervisor",
                                "researcher <- supervisor: Find what happened to consumer lag after the 2.3 deploy and"
                                        + " what fixed it. => " + FINDINGS + " (219 in, 50 out)",
                                "writer <- supervisor: Draft a two-sentence incident note from the research"
                                        + " findings.\n\nFindings: " + FINDINGS + " => " + DRAFT
                                        + " (282 in, 70 out)"))));
    }

    private static Stream<Arguments> withoutAgents(String paris) {
        return Stream.of(
                Arguments.of("otel-openai-tool-loop", List.of(
                        Expected.user("What is the weather in Paris right now?"),
                        Expected.answer("It is 18 °C in Paris with light rain, so take an umbrella.", 86 + 131,
                                17 + 16, TRAVEL, paris))),
                Arguments.of("otel-openai-parallel-tools", List.of(
                        Expected.user("Compare the weather in Paris and London right now."),
                        Expected.answer("Paris is warmer at 18 °C with light rain; London is 14 °C and overcast.",
                                92 + 171, 46 + 22, "instructions: You are a travel assistant. Use the tools for live data;"
                                        + " call them in parallel when you can.", paris,
                                weather("London", 14, "overcast")))),
                Arguments.of("otel-openai-streamed", List.of(
                        Expected.user("Should I pack sunglasses for Lisbon today?"),
                        Expected.answer("Yes: it is sunny and 24 °C in Lisbon, so sunglasses are a good idea.",
                                84 + 129, 17 + 19, TRAVEL, weather("Lisbon", 24, "sunny")))),
                Arguments.of("otel-openai-repeated-turn", List.of(
                        Expected.user("Suggest a name for my black cat."),
                        Expected.answer("How about Onyx?", 31, 5, FRIENDLY),
                        Expected.user("Suggest a name for my black cat."),
                        Expected.answer("Another idea: Salem.", 47, 6, FRIENDLY))),
                Arguments.of("otel-openai-trimmed-history", List.of(
                        Expected.user("Is it snowing in Oslo?"),
                        Expected.answer("Yes, there are snow showers in Oslo and it is 3 °C.", 58 + 79, 16 + 15,
                                null, weather("Oslo", 3, "snow showers")))),
                Arguments.of("otel-openai-responses-tool-loop", List.of(
                        Expected.user("Do I need a coat in Oslo this evening?"),
                        Expected.answer("Yes: it is 3 °C with snow showers in Oslo, so take a warm coat.", 91 + 168,
                                40 + 22, TRAVEL, "reasoning: The user asks about the evening in Oslo: I need the"
                                        + " current weather there.", weather("Oslo", 3, "snow showers")))),
                Arguments.of("openinference-openai-tool-loop", List.of(
                        Expected.user("What is the weather in Paris right now?"),
                        Expected.answer("It is 18 °C in Paris with light rain, so take an umbrella.", 86 + 131,
                                17 + 16, TRAVEL + "; tools offered: get_weather; cached 0; reasoning 0", paris))),
                Arguments.of("openinference-langchain-tool-loop", List.of(
                        Expected.user("What is the weather in London right now?"),
                        Expected.answer("It is 14 °C and overcast in London.", 86 + 129, 17 + 11,
                                TRAVEL + "; tools offered: get_weather", weather("London", 14, "overcast")))),
                Arguments.of("genai-conventions-memory-agent", List.of(
                        Expected.user("Consumer lag is climbing again after the 2.4 deploy. What fixed it last time?"),
                        Expected.answer(ONCALL_ANSWER, 320 + 402, 24 + 58, "instructions: You are the on-call"
                                + " assistant. What you remember: Lag after a deploy: lower max.poll.records before"
                                + " scaling consumers.; tools offered: search_notes; cached 576; reasoning 42; first"
                                + " token",
                                "memory search_memory -> [{\"id\":\"lesson-7\",\"content\":\"Lag after a deploy:"
                                        + " lower max.poll.records before scaling consumers.\",\"score\":0.82}]",
                                "search_notes -> {\"query\":\"consumer lag deploy fix\",\"passages\":[\"Kafka"
                                        + " consumer lag rose to 120k messages after the 2.3 deploy.\",\"Lag fell back"
                                        + " under 1k once max.poll.records was lowered to 200.\"]}",
                                "memory create_memory -> [{\"id\":\"lesson-8\",\"content\":\"" + ONCALL_ANSWER
                                        + "\"}]"))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("corpus")
    void aRecordedRunSentShuffledSplitAndTwiceIsExactlyTheAgentsSession(String scenario, List<Expected> expected,
            List<String> agents) throws IOException {
        String conversation = "conv-" + scenario + "-" + UUID.randomUUID();
        JsonNode fixture = fixture(scenario, conversation);
        Random random = new Random(SEED ^ scenario.hashCode());
        List<Request> requests = shuffledAndSplit(fixture, random);
        String replay = "seed " + SEED + ", " + requests.size() + " requests";

        for (Request request : requests) {
            Response answer = given().baseUri(system.url(Service.INGEST))
                    .header("Authorization", TestTenants.TENANT_A.bearer()).contentType("application/json")
                    .body(request.body().toString()).when().post("/otlp/v1/" + request.signal());
            assertThat(answer.statusCode()).as(replay + ": " + answer.body().asString()).isEqualTo(200);
            assertThat(answer.body().asString()).as(replay + ": nothing refused").doesNotContain("rejected");
        }

        // Every request was acknowledged; query-service applies them in its own time, so wait for the session to
        // become what it should be, then say what differs if it never did.
        JsonNode session = awaitSession(conversation, read -> actual(read).equals(expected)
                && agents(read).equals(agents));
        assertThat(actual(session)).as(replay).containsExactlyElementsOf(expected);
        assertThat(agents(session)).as(replay).containsExactlyElementsOf(agents);
    }

    /** The fixture, its conversation id made this run's own and its trace ids new, so that runs do not meet. */
    private static JsonNode fixture(String scenario, String conversation) throws IOException {
        String text;
        try (InputStream in = OtelCorpusIT.class.getResourceAsStream("/otel-corpus/" + scenario + ".json")) {
            assertThat(in).as("fixture " + scenario).isNotNull();
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        JsonNode fixture = Wire.JSON.readTree(text.replace("conv-" + scenario + "-0001", conversation));
        renameTraces(fixture, new HashMap<>());
        return fixture;
    }

    private static void renameTraces(JsonNode node, Map<String, String> renamed) {
        if (node instanceof ObjectNode object) {
            JsonNode trace = object.get("traceId");
            if (trace != null && trace.isTextual() && !trace.textValue().isEmpty()) {
                object.put("traceId", renamed.computeIfAbsent(trace.textValue(), old -> {
                    byte[] id = new byte[16];
                    new Random().nextBytes(id);
                    return HexFormat.of().formatHex(id);
                }));
            }
            object.forEach(child -> renameTraces(child, renamed));
        } else if (node instanceof ArrayNode array) {
            array.forEach(child -> renameTraces(child, renamed));
        }
    }

    /** An export request: {@code traces} or {@code logs}, and its OTLP/JSON body. */
    private record Request(String signal, JsonNode body) {
    }

    /**
     * What travels as one piece: a span, or the GenAI events one export held for one span, in their order (an
     * instrumentation emits a call's events in one burst, often with one timestamp, and an SDK's batch keeps them
     * together), with the resource and scope they were exported under.
     */
    private record Item(String signal, JsonNode resource, JsonNode scope, List<JsonNode> records) {
    }

    /**
     * The fixture's spans and events in pieces ({@link Item}), shuffled, about a fifth of them twice (an exporter's
     * retry), in requests of one to three pieces of a signal; the root span, which alone names the conversation for
     * OpenTelemetry's instrumentation, in the last request.
     */
    private static List<Request> shuffledAndSplit(JsonNode fixture, Random random) {
        List<Item> items = new ArrayList<>();
        Item root = null;
        for (JsonNode export : fixture.path("exports")) {
            boolean traces = export.path("signal").asText().equals("traces");
            for (JsonNode resource : export.path("body").path(traces ? "resourceSpans" : "resourceLogs")) {
                for (JsonNode scope : resource.path(traces ? "scopeSpans" : "scopeLogs")) {
                    Map<String, List<JsonNode>> bySpan = new java.util.LinkedHashMap<>();
                    for (JsonNode record : scope.path(traces ? "spans" : "logRecords")) {
                        if (traces) {
                            Item span = new Item("traces", resource.path("resource"), scope.path("scope"),
                                    List.of(record));
                            if (record.path("parentSpanId").asText("").isEmpty()) {
                                root = span;
                            } else {
                                items.add(span);
                            }
                        } else {
                            bySpan.computeIfAbsent(record.path("spanId").asText(), k -> new ArrayList<>()).add(record);
                        }
                    }
                    bySpan.values().forEach(records -> items.add(new Item("logs", resource.path("resource"),
                            scope.path("scope"), records)));
                }
            }
        }
        assertThat(root).as("the fixture's root span").isNotNull();
        List<Item> again = new ArrayList<>();
        for (Item item : items) {
            if (random.nextInt(5) == 0) {
                again.add(item);
            }
        }
        items.addAll(again);
        Collections.shuffle(items, random);
        List<Request> requests = new ArrayList<>();
        int i = 0;
        while (i < items.size()) {
            String signal = items.get(i).signal();
            List<Item> batch = new ArrayList<>();
            int size = 1 + random.nextInt(3);
            // An exporter retries a request as it was: never the same records twice within one.
            while (i < items.size() && batch.size() < size && items.get(i).signal().equals(signal)
                    && !batch.contains(items.get(i))) {
                batch.add(items.get(i++));
            }
            requests.add(request(signal, batch));
        }
        requests.add(request("traces", List.of(root)));
        return requests;
    }

    private static Request request(String signal, List<Item> items) {
        boolean traces = signal.equals("traces");
        ObjectNode body = Wire.JSON.createObjectNode();
        ArrayNode resources = body.putArray(traces ? "resourceSpans" : "resourceLogs");
        for (Item item : items) {
            ObjectNode resource = resources.addObject();
            resource.set("resource", item.resource());
            ObjectNode scope = resource.putArray(traces ? "scopeSpans" : "scopeLogs").addObject();
            scope.set("scope", item.scope());
            scope.putArray(traces ? "spans" : "logRecords").addAll(item.records());
        }
        return new Request(signal, body);
    }

    /**
     * The session's agents as "name", or "name <- parent: task => answer (tokens in, out)" for a sub-agent; empty when
     * none ran inside another.
     */
    private static List<String> agents(JsonNode session) {
        Map<String, String> names = agentNames(session);
        List<String> agents = new ArrayList<>();
        for (JsonNode agent : session.path("agents")) {
            String parent = agent.path("parent_agent_id").asText(null);
            if (parent == null) {
                agents.add(agent.path("name").asText());
                continue;
            }
            StringBuilder line = new StringBuilder(agent.path("name").asText()).append(" <- ").append(names.get(parent))
                    .append(':');
            for (JsonNode message : agent.path("messages")) {
                JsonNode usage = message.path("usage");
                line.append(message.path("role").asText().equals("user") ? " " : " => ")
                        .append(message.path("content").asText());
                if (!usage.isMissingNode()) {
                    line.append(" (").append(usage.path("input_tokens").asLong()).append(" in, ")
                            .append(usage.path("output_tokens").asLong()).append(" out)");
                }
            }
            agents.add(line.toString());
        }
        return agents;
    }

    private static Map<String, String> agentNames(JsonNode session) {
        Map<String, String> names = new HashMap<>();
        session.path("agents").forEach(a -> names.put(a.path("agent_id").asText(), a.path("name").asText()));
        return names;
    }

    /** The session as the API serves it, in the terms of {@link Expected}; a sub-agent's step named after it. */
    private static List<Expected> actual(JsonNode session) {
        Map<String, String> names = agentNames(session);
        List<Expected> messages = new ArrayList<>();
        for (JsonNode message : session.path("messages")) {
            List<String> tools = new ArrayList<>();
            for (JsonNode step : message.path("thinking_steps")) {
                String agent = step.hasNonNull("agent_id") ? "[" + names.get(step.get("agent_id").asText()) + "] "
                        : "";
                String memory = step.hasNonNull("memory_operation") ? "memory " : "";
                tools.add(agent + memory + (step.path("step_type").asText().equals("tool")
                        ? step.path("tool_name").asText() + " -> " + step.path("tool_result").asText()
                        : step.path("step_type").asText() + ": " + step.path("content").asText()));
            }
            JsonNode usage = message.path("usage");
            messages.add(new Expected(message.path("role").asText(), message.path("content").asText(), tools,
                    usage.hasNonNull("input_tokens") ? usage.get("input_tokens").asLong() : null,
                    usage.hasNonNull("output_tokens") ? usage.get("output_tokens").asLong() : null,
                    details(message)));
        }
        return messages;
    }

    /**
     * What an answer keeps besides its words, steps and tokens: its system instructions, the names of the tools it
     * was offered, cache reads and writes, reasoning tokens, and whether a time to first token was measured (its value
     * is the run's own); null when none.
     */
    private static String details(JsonNode message) {
        List<String> details = new ArrayList<>();
        if (message.hasNonNull("system_instructions")) {
            details.add("instructions: " + message.get("system_instructions").asText());
        }
        if (message.hasNonNull("tool_definitions")) {
            List<String> names = new ArrayList<>();
            message.get("tool_definitions").forEach(tool -> names.add(tool.hasNonNull("name")
                    ? tool.get("name").asText() : tool.path("function").path("name").asText()));
            details.add("tools offered: " + String.join(", ", names));
        }
        JsonNode usage = message.path("usage");
        for (String[] count : new String[][] {{"cache_read_input_tokens", "cached"},
                {"cache_write_input_tokens", "cache writes"}, {"reasoning_output_tokens", "reasoning"}}) {
            if (usage.hasNonNull(count[0])) {
                details.add(count[1] + " " + usage.get(count[0]).asLong());
            }
        }
        if (usage.hasNonNull("time_to_first_token_ms")) {
            assertThat(usage.get("time_to_first_token_ms").asLong()).as("time to first token")
                    .isBetween(0L, usage.path("latency_ms").asLong());
            details.add("first token");
        }
        return details.isEmpty() ? null : String.join("; ", details);
    }

    private static JsonNode awaitSession(String sessionId, java.util.function.Predicate<JsonNode> complete) {
        return SessionAwait.until(system, sessionId, complete, "seed " + SEED);
    }
}
