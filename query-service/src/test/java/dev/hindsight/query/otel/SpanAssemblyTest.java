package dev.hindsight.query.otel;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hindsight.query.otel.SpanAssembly.Message;
import dev.hindsight.query.otel.SpanAssembly.Session;
import dev.hindsight.query.otel.SpanAssembly.Step;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SpanAssemblyTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TRACE = "5b8efff798038103d269b633813fc60c";
    private static final long MS = 1_000_000L;

    @Test
    void aGenAiRunWithReasoningAToolCallAndItsExecutionIsOneAnswerWithOrderedSteps() {
        List<SpanFact> spans = List.of(
                span("0000000000000001", null, 0, 100, "invoke_agent", Map.of("gen_ai.operation.name", "invoke_agent",
                        "gen_ai.conversation.id", "conv-1", "gen_ai.agent.name", "bug-hunter")),
                span("0000000000000002", "0000000000000001", 1, 20, "chat gpt-5", Map.of(
                        "gen_ai.operation.name", "chat", "gen_ai.request.model", "gpt-5",
                        "gen_ai.usage.input_tokens", 40, "gen_ai.usage.output_tokens", 12,
                        "gen_ai.input.messages", "[" + USER + "]",
                        "gen_ai.output.messages", "[" + CALL + "]")),
                tool("0000000000000003", 21, 30, "call-1", "search", "3 hits in csv.py", false),
                span("0000000000000004", "0000000000000001", 31, 60, "chat gpt-5", Map.of(
                        "gen_ai.operation.name", "chat", "gen_ai.response.model", "gpt-5-2025",
                        "gen_ai.usage.input_tokens", 90, "gen_ai.usage.output_tokens", 20,
                        "gen_ai.input.messages", "[" + USER + "," + CALL + "]",
                        "gen_ai.output.messages", "[" + ANSWER + "]")));

        Session session = SpanAssembly.assemble(SpanAssembly.sessionId(spans), spans);

        assertThat(session.sessionId()).isEqualTo("conv-1");
        assertThat(session.agent()).isEqualTo("bug-hunter");
        assertThat(session.model()).isEqualTo("gpt-5-2025");
        assertThat(session.labels()).containsEntry("service.name", "agent");
        assertThat(session.messages()).hasSize(2);
        Message user = session.messages().get(0);
        assertThat(user.role()).isEqualTo("user");
        assertThat(user.content()).isEqualTo("Why does the CSV export drop its last row?");
        Message answer = session.messages().get(1);
        assertThat(answer.index()).isEqualTo(1);
        assertThat(answer.content()).isEqualTo("The split drops the last line: use splitlines().");
        assertThat(answer.steps()).containsExactly(
                new Step("reasoning", "The last row is lost: look at how lines are split.", null, null, null, null,
                        null),
                new Step("reasoning", "Let me search.", null, null, null, null, null),
                new Step("tool", null, "search", "{\"q\":\"split\"}", "3 hits in csv.py", null, "call-1"));
        assertThat(answer.inputTokens()).isEqualTo(130);
        assertThat(answer.outputTokens()).isEqualTo(32);
        assertThat(answer.latencyMillis()).isEqualTo(19 + 29);
        assertThat(answer.model()).isEqualTo("gpt-5-2025");
    }

    @Test
    void aFailedToolExecutionIsTheStepsErrorAndAToolMessageResultWinsOverTheSpan() {
        String call2 = "{\"role\":\"assistant\",\"parts\":[{\"type\":\"tool_call\",\"id\":\"call-2\",\"name\":\"run\","
                + "\"arguments\":{\"cmd\":\"pytest\"}}]}";
        String response = "{\"role\":\"tool\",\"parts\":[{\"type\":\"tool_call_response\",\"id\":\"call-1\","
                + "\"response\":\"from the message\"}]}";
        List<SpanFact> spans = List.of(
                span("0000000000000002", null, 1, 20, "chat", Map.of("gen_ai.operation.name", "chat",
                        "gen_ai.input.messages", "[" + USER + "," + CALL + "," + response + "]",
                        "gen_ai.output.messages", "[" + call2 + "]")),
                tool("0000000000000003", 2, 3, "call-1", "search", "from the span", false),
                tool("0000000000000005", 21, 30, "call-2", "run", null, true));

        Message answer = SpanAssembly.assemble("s", spans).messages().get(1);

        assertThat(answer.steps()).extracting(Step::toolName, Step::toolResult, Step::toolError)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(null, null, null),
                        org.assertj.core.groups.Tuple.tuple(null, null, null),
                        org.assertj.core.groups.Tuple.tuple("search", "from the message", null),
                        org.assertj.core.groups.Tuple.tuple("run", null, "timeout"));
        assertThat(answer.content()).isEmpty();
    }

    @Test
    void openInferenceFlattenedMessagesAndToolSpansAreReadToo() {
        Map<String, Object> llm = new java.util.HashMap<>();
        llm.put("openinference.span.kind", "LLM");
        llm.put("llm.model_name", "claude-sonnet");
        llm.put("session.id", "oi-session");
        llm.put("llm.token_count.prompt", 15);
        llm.put("llm.token_count.completion", 5);
        llm.put("llm.input_messages.0.message.role", "system");
        llm.put("llm.input_messages.0.message.content", "You are helpful.");
        llm.put("llm.input_messages.1.message.role", "user");
        llm.put("llm.input_messages.1.message.content", "Weather in Paris?");
        llm.put("llm.output_messages.0.message.role", "assistant");
        llm.put("llm.output_messages.0.message.tool_calls.0.tool_call.id", "t1");
        llm.put("llm.output_messages.0.message.tool_calls.0.tool_call.function.name", "weather");
        llm.put("llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments", "{\"city\":\"Paris\"}");
        SpanFact tool = span("0000000000000003", null, 30, 40, "weather", Map.of("openinference.span.kind", "TOOL",
                "tool.name", "weather", "output.value", "18°C, sunny"));

        Session session = SpanAssembly.assemble(SpanAssembly.sessionId(List.of(tool, span("0000000000000002", null,
                10, 20, "llm", llm))), List.of(tool, span("0000000000000002", null, 10, 20, "llm", llm)));

        assertThat(session.sessionId()).isEqualTo("oi-session");
        assertThat(session.model()).isEqualTo("claude-sonnet");
        assertThat(session.messages()).extracting(Message::role).containsExactly("user", "assistant");
        assertThat(session.messages().get(1).steps()).containsExactly(
                new Step("tool", null, "weather", "{\"city\":\"Paris\"}", "18°C, sunny", null, "t1"));
        assertThat(session.messages().get(1).inputTokens()).isEqualTo(15);
    }

    @Test
    void thePersonASessionIsAboutIsTheFirstUserIdOnASpanOrItsResource() {
        SpanFact first = new SpanFact(TRACE, "0000000000000001", null, "agent", "GEN_AI", 10 * MS, 20 * MS, "UNSET",
                null, object(Map.of("enduser.id", "legacy-7")), List.of(), object(Map.of()));
        SpanFact second = new SpanFact(TRACE, "0000000000000002", null, "chat", "GEN_AI", 11 * MS, 19 * MS, "UNSET",
                null, object(Map.of()), List.of(), object(Map.of("user.id", "u-42")));
        SpanFact none = new SpanFact(TRACE, "0000000000000003", null, "chat", "GEN_AI", 12 * MS, 18 * MS, "UNSET",
                null, object(Map.of("user.id", "")), List.of(), object(Map.of()));

        // user.id wins over the older enduser.id whichever span holds it; an empty id names nobody.
        assertThat(SpanAssembly.assemble("s", List.of(first, second, none)).subject()).isEqualTo("u-42");
        assertThat(SpanAssembly.assemble("s", List.of(first, none)).subject()).isEqualTo("legacy-7");
        assertThat(SpanAssembly.assemble("s", List.of(none)).subject()).isNull();
    }

    @Test
    void theOlderEventBasedGenAiMessagesAreReadToo() {
        SpanFact chat = new SpanFact(TRACE, "0000000000000002", null, "chat", "GEN_AI", 10 * MS, 20 * MS, "UNSET",
                null, object(Map.of("gen_ai.system", "openai", "gen_ai.request.model", "gpt-4o")), List.of(
                        new SpanFact.Event("gen_ai.system.message", 10 * MS, object(Map.of("content", "Be brief."))),
                        new SpanFact.Event("gen_ai.user.message", 10 * MS, object(Map.of("content", "Hi there"))),
                        new SpanFact.Event("gen_ai.choice", 20 * MS, object(Map.of("index", 0, "finish_reason", "stop",
                                "message", "{\"role\":\"assistant\",\"content\":\"Hello!\"}")))),
                object(Map.of()));

        Session session = SpanAssembly.assemble(SpanAssembly.sessionId(List.of(chat)), List.of(chat));

        assertThat(session.sessionId()).as("no conversation id: the trace").isEqualTo(TRACE);
        assertThat(session.messages()).extracting(Message::role, Message::content).containsExactly(
                org.assertj.core.groups.Tuple.tuple("user", "Hi there"),
                org.assertj.core.groups.Tuple.tuple("assistant", "Hello!"));
        assertThat(session.model()).isEqualTo("gpt-4o");
    }

    @Test
    void aToolCallingMessageWithEmptyTextMakesNoStep() {
        // LangChain under OpenInference: the model's tool-calling message has content "", a blank one "  ".
        Map<String, Object> first = new java.util.HashMap<>();
        first.put("openinference.span.kind", "LLM");
        first.put("llm.input_messages.0.message.role", "user");
        first.put("llm.input_messages.0.message.content", "Weather in Paris?");
        first.put("llm.output_messages.0.message.role", "assistant");
        first.put("llm.output_messages.0.message.content", "");
        first.put("llm.output_messages.0.message.tool_calls.0.tool_call.function.name", "weather");
        first.put("llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments", "{\"city\":\"Paris\"}");
        Map<String, Object> second = new java.util.HashMap<>(first);
        second.put("llm.input_messages.1.message.role", "assistant");
        second.put("llm.input_messages.1.message.content", "  ");
        second.put("llm.input_messages.1.message.tool_calls.0.tool_call.function.name", "weather");
        second.put("llm.input_messages.1.message.tool_calls.0.tool_call.function.arguments", "{\"city\":\"Paris\"}");
        second.put("llm.input_messages.2.message.role", "tool");
        second.put("llm.input_messages.2.message.content", "18°C");
        second.put("llm.output_messages.0.message.content", "18°C in Paris.");
        second.keySet().removeIf(k -> k.startsWith("llm.output_messages.0.message.tool_calls"));
        List<SpanFact> spans = List.of(span("0000000000000002", null, 10, 20, "llm", first),
                span("0000000000000003", null, 30, 40, "llm", second));

        Session session = SpanAssembly.assemble(SpanAssembly.sessionId(spans), spans);

        assertThat(session.messages()).extracting(Message::role).containsExactly("user", "assistant");
        assertThat(session.messages().get(1).content()).isEqualTo("18°C in Paris.");
        assertThat(session.messages().get(1).steps()).containsExactly(
                new Step("tool", null, "weather", "{\"city\":\"Paris\"}", "18°C", null, null));
    }

    @Test
    void blankLastWordsAreStillTheAnswerAsSent() {
        String blank = "{\"role\":\"assistant\",\"parts\":[{\"type\":\"text\",\"content\":\" \\t\\n \"}]}";
        List<SpanFact> spans = List.of(chat("0000000000000002", 1, 10, List.of(USER), List.of(CALL)),
                chat("0000000000000004", 20, 30, List.of(USER, CALL, TOOL_RESULT), List.of(blank)));

        Message answer = SpanAssembly.assemble("s", spans).messages().get(1);

        assertThat(answer.content()).isEqualTo(" \t\n ");
        assertThat(answer.steps()).extracting(Step::type).containsExactly("reasoning", "reasoning", "tool");
    }

    @Test
    void genAiEventsJoinedFromLogRecordsAreReadAsSpanEventsWhateverOrderTheyCameIn() {
        SpanFact chat = span("0000000000000002", null, 10, 20, "chat", Map.of("gen_ai.system", "openai",
                "gen_ai.request.model", "gpt-4o-mini"));
        List<SpanLogs.Event> events = new ArrayList<>(List.of(
                new SpanLogs.Event("gen_ai.user.message", 10 * MS, 0, object(Map.of("content", "Hi there")),
                        object(Map.of("event.name", "gen_ai.user.message", "gen_ai.system", "openai")),
                        java.util.UUID.fromString("00000000-0000-0000-0000-000000000002")),
                new SpanLogs.Event("gen_ai.choice", 20 * MS, 0, object(Map.of("index", 0, "message",
                        Map.of("role", "assistant", "content", "Hello!"))), object(Map.of()),
                        java.util.UUID.fromString("00000000-0000-0000-0000-000000000001"))));
        Collections.reverse(events);

        SpanFact joined = SpanLogs.joined(chat, events);
        Session session = SpanAssembly.assemble(SpanAssembly.sessionId(List.of(joined)), List.of(joined));

        assertThat(joined.events()).extracting(SpanFact.Event::name).containsExactly("gen_ai.user.message",
                "gen_ai.choice");
        assertThat(joined.events().get(0).attributes().has("event.name")).isFalse();
        assertThat(session.messages()).extracting(Message::role, Message::content).containsExactly(
                org.assertj.core.groups.Tuple.tuple("user", "Hi there"),
                org.assertj.core.groups.Tuple.tuple("assistant", "Hello!"));
    }

    @Test
    void eventsOfOneInstantAreReadInTheirPlaceInTheExportNotByTheirIds() {
        SpanFact chat = span("0000000000000002", null, 10, 20, "chat", Map.of("gen_ai.request.model", "gpt-4o"));
        long at = 10 * MS;
        // The ids sort the other way round from the positions.
        List<SpanLogs.Event> events = List.of(
                new SpanLogs.Event("gen_ai.user.message", at, 0, object(Map.of("content", "Suggest a name.")),
                        object(Map.of()), java.util.UUID.fromString("00000000-0000-0000-0000-000000000009")),
                new SpanLogs.Event("gen_ai.assistant.message", at, 1, object(Map.of("content", "Onyx?")),
                        object(Map.of()), java.util.UUID.fromString("00000000-0000-0000-0000-000000000008")),
                new SpanLogs.Event("gen_ai.user.message", at, 2, object(Map.of("content", "Suggest a name.")),
                        object(Map.of()), java.util.UUID.fromString("00000000-0000-0000-0000-000000000007")),
                new SpanLogs.Event("gen_ai.choice", 20 * MS, 0, object(Map.of("message", Map.of("content",
                        "Salem."))), object(Map.of()), java.util.UUID.fromString(
                                "00000000-0000-0000-0000-000000000001")));

        SpanFact joined = SpanLogs.joined(chat, events);
        Session session = SpanAssembly.assemble("s", List.of(joined));

        assertThat(contents(session)).containsExactly("user: Suggest a name.", "assistant: Onyx?",
                "user: Suggest a name.", "assistant: Salem.");
    }

    @Test
    void theOperationDetailsEventFillsOnlyWhatTheSpanLacks() {
        SpanFact chat = span("0000000000000002", null, 10, 20, "chat", Map.of("gen_ai.request.model", "gpt-5",
                "gen_ai.output.messages", "[" + ANSWER + "]"));
        SpanLogs.Event details = new SpanLogs.Event(SpanLogs.OPERATION_DETAILS, 20 * MS, 0, null, object(Map.of(
                "gen_ai.request.model", "other", "gen_ai.input.messages", JSON.valueToTree(List.of(Map.of(
                        "role", "user", "parts", List.of(Map.of("type", "text", "content", "Why?"))))))),
                java.util.UUID.randomUUID());

        SpanFact joined = SpanLogs.joined(chat, List.of(details));

        assertThat(joined.text("gen_ai.request.model")).isEqualTo("gpt-5");
        assertThat(joined.attributes().get("gen_ai.input.messages").isArray()).isTrue();
        assertThat(chat.attributes().has("gen_ai.input.messages")).as("the span itself is left as it was").isFalse();
        Session session = SpanAssembly.assemble(SpanAssembly.sessionId(List.of(joined)), List.of(joined));
        assertThat(session.messages()).extracting(Message::content).containsExactly("Why?",
                "The split drops the last line: use splitlines().");
    }

    @Test
    void agentsInsideAnAgentAreATreeAndTheirStepsSitInTheAnswerDuringWhichTheyRan() {
        String sup = "00000000000000a1";
        String researcher = "00000000000000b1";
        String writer = "00000000000000c1";
        String question = message("user", "text", "Write a note about the lag.");
        String delegate = "{\"role\":\"assistant\",\"parts\":[{\"type\":\"tool_call\",\"id\":\"d1\","
                + "\"name\":\"research\",\"arguments\":{}},{\"type\":\"tool_call\",\"id\":\"d2\","
                + "\"name\":\"write\",\"arguments\":{}}]}";
        String results = "{\"role\":\"tool\",\"parts\":[{\"type\":\"tool_call_response\",\"id\":\"d1\","
                + "\"response\":\"Lag rose.\"},{\"type\":\"tool_call_response\",\"id\":\"d2\","
                + "\"response\":\"Note.\"}]}";
        String searchCall = "{\"role\":\"assistant\",\"parts\":[{\"type\":\"tool_call\",\"id\":\"s1\","
                + "\"name\":\"search\",\"arguments\":{\"q\":\"lag\"}}]}";
        String searchResult = "{\"role\":\"tool\",\"parts\":[{\"type\":\"tool_call_response\","
                + "\"id\":\"s1\",\"response\":\"120k\"}]}";
        List<SpanFact> spans = new ArrayList<>(List.of(
                span(sup, null, 0, 100, "invoke_agent supervisor", Map.of("gen_ai.operation.name", "invoke_agent",
                        "gen_ai.agent.name", "supervisor", "gen_ai.conversation.id", "conv-sup")),
                call("0000000000000001", sup, 1, 10, List.of(question), List.of(delegate)),
                span(researcher, sup, 11, 40, "invoke_agent researcher", Map.of("gen_ai.operation.name",
                        "invoke_agent", "gen_ai.agent.name", "researcher", "gen_ai.agent.description", "Finds facts")),
                call("0000000000000002", researcher, 12, 20, List.of(message("user", "text", "Find the lag.")),
                        List.of(searchCall)),
                span("0000000000000003", researcher, 21, 22, "search_memory", Map.of("gen_ai.operation.name",
                        "search_memory", "gen_ai.memory.query.text", "lag", "gen_ai.memory.store.id", "notes",
                        "gen_ai.memory.record.count", 2)),
                call("0000000000000004", researcher, 23, 39, List.of(message("user", "text", "Find the lag."),
                        searchCall, searchResult), List.of(message("assistant", "text", "Lag rose."))),
                span(writer, sup, 41, 60, "invoke_agent writer", Map.of("gen_ai.operation.name", "invoke_agent",
                        "gen_ai.agent.name", "writer")),
                call("0000000000000005", writer, 42, 59, List.of(message("user", "text", "Write it.")),
                        List.of(message("assistant", "text", "Note."))),
                call("0000000000000006", sup, 61, 90, List.of(question, delegate, results),
                        List.of(message("assistant", "text", "Here is the note.")))));

        for (int order = 0; order < 3; order++) {
            Collections.shuffle(spans, new Random(order));
            Session session = SpanAssembly.assemble(SpanAssembly.sessionId(spans), spans);

            assertThat(session.sessionId()).isEqualTo("conv-sup");
            assertThat(session.agent()).isEqualTo("supervisor");
            assertThat(contents(session)).containsExactly("user: Write a note about the lag.",
                    "assistant: Here is the note.");
            assertThat(session.messages().get(1).steps()).extracting(Step::toolName, Step::agentId,
                    Step::memoryOperation).containsExactly(
                    org.assertj.core.groups.Tuple.tuple("research", null, null),
                    org.assertj.core.groups.Tuple.tuple("write", null, null),
                    org.assertj.core.groups.Tuple.tuple("search", researcher, null),
                    org.assertj.core.groups.Tuple.tuple("search_memory", researcher, "search_memory"));
            assertThat(session.messages().get(1).inputTokens()).as("the supervisor's own calls").isNull();
            assertThat(session.agents()).extracting(SpanAssembly.Agent::agentId, SpanAssembly.Agent::parentAgentId,
                    SpanAssembly.Agent::name).containsExactly(
                    org.assertj.core.groups.Tuple.tuple(sup, null, "supervisor"),
                    org.assertj.core.groups.Tuple.tuple(researcher, sup, "researcher"),
                    org.assertj.core.groups.Tuple.tuple(writer, sup, "writer"));
            SpanAssembly.Agent research = session.agents().get(1);
            assertThat(research.description()).isEqualTo("Finds facts");
            assertThat(research.messages()).extracting(Message::role, Message::content).containsExactly(
                    org.assertj.core.groups.Tuple.tuple("user", "Find the lag."),
                    org.assertj.core.groups.Tuple.tuple("assistant", "Lag rose."));
            Step memory = research.messages().get(1).steps().get(1);
            assertThat(memory).isEqualTo(new Step("tool", null, "search_memory",
                    "{\"query\":\"lag\",\"store_id\":\"notes\"}", "{\"record_count\":2}", null, null,
                    researcher, "search_memory"));
            assertThat(session.agents().get(0).messages()).as("the session's messages are the supervisor's").isEmpty();
        }
    }

    @Test
    void aSessionWithoutSubAgentsHasNoTreeAndNoAgentOnItsSteps() {
        List<SpanFact> spans = List.of(
                span("0000000000000001", null, 0, 100, "invoke_agent", Map.of("gen_ai.operation.name", "invoke_agent",
                        "gen_ai.agent.name", "solo")),
                chat("0000000000000002", 1, 10, List.of(USER), List.of(CALL)));

        Session session = SpanAssembly.assemble("s", spans);

        assertThat(session.agents()).isEmpty();
        assertThat(session.messages().get(1).steps()).allSatisfy(step -> assertThat(step.agentId()).isNull());
    }

    @Test
    void todaysUsageInstructionsToolsAndTimeToFirstTokenAreKeptWithTheAnswer() {
        Map<String, Object> first = new java.util.HashMap<>(Map.of("gen_ai.operation.name", "chat",
                "gen_ai.provider.name", "anthropic", "gen_ai.request.model", "claude",
                "gen_ai.input.messages", "[" + USER + "]", "gen_ai.output.messages", "[" + CALL + "]",
                "gen_ai.usage.input_tokens", 100, "gen_ai.usage.output_tokens", 10,
                "gen_ai.usage.cache_read.input_tokens", 80, "gen_ai.usage.cache_write.input_tokens", 20));
        first.put("gen_ai.usage.reasoning.output_tokens", 4);
        first.put("gen_ai.response.time_to_first_chunk", 0.25);
        first.put("gen_ai.system_instructions", "[{\"type\":\"text\",\"content\":\"Be exact.\"}]");
        first.put("gen_ai.tool.definitions", "[{\"type\":\"function\",\"name\":\"search\"}]");
        Map<String, Object> second = new java.util.HashMap<>(first);
        second.put("gen_ai.input.messages", "[" + USER + "," + CALL + "," + TOOL_RESULT + "]");
        second.put("gen_ai.output.messages", "[" + ANSWER + "]");
        second.put("gen_ai.response.time_to_first_chunk", 0.0424);
        second.put("gen_ai.usage.cache_write.input_tokens", 5);
        List<SpanFact> spans = List.of(span("0000000000000002", null, 1, 10, "chat", first),
                span("0000000000000003", null, 20, 30, "chat", second));

        Session session = SpanAssembly.assemble("s", spans);
        Message answer = session.messages().get(1);

        assertThat(session.provider()).isEqualTo("anthropic");
        assertThat(answer.usage()).isEqualTo(new SpanAssembly.Usage(200L, 20L, 160L, 25L, 8L, 19L, 42L, "claude"));
        assertThat(answer.systemInstructions()).isEqualTo("Be exact.");
        assertThat(answer.toolDefinitions()).isEqualTo("[{\"type\":\"function\",\"name\":\"search\"}]");
        assertThat(session.messages().get(0).usage()).as("a user's message costs nothing").isNull();
    }

    @Test
    void yesterdaysNamesAndOpenInferencesAreReadToo() {
        Map<String, Object> older = new java.util.HashMap<>(Map.of("gen_ai.system", "openai",
                "gen_ai.input.messages", "[{\"role\":\"system\",\"parts\":[{\"type\":\"text\","
                        + "\"content\":\"Be kind.\"}]}," + USER + "]",
                "gen_ai.output.messages", "[" + ANSWER + "]", "gen_ai.usage.prompt_tokens", 10,
                "gen_ai.usage.completion_tokens", 3, "gen_ai.usage.input_tokens.cached", 6,
                "gen_ai.usage.cache_creation.input_tokens", 2, "gen_ai.usage.output_tokens.reasoning", 1,
                "gen_ai.response.time_to_first_token", 1.5));
        Session genAi = SpanAssembly.assemble("s", List.of(span("0000000000000002", null, 1, 10, "chat", older)));
        assertThat(genAi.provider()).isEqualTo("openai");
        assertThat(genAi.messages().get(1).usage()).isEqualTo(new SpanAssembly.Usage(10L, 3L, 6L, 2L, 1L, 9L, 1500L,
                null));
        assertThat(genAi.messages().get(1).systemInstructions()).isEqualTo("Be kind.");

        Map<String, Object> oi = new java.util.HashMap<>();
        oi.put("openinference.span.kind", "LLM");
        oi.put("llm.provider", "openai");
        oi.put("llm.input_messages.0.message.role", "system");
        oi.put("llm.input_messages.0.message.content", "Be brief.");
        oi.put("llm.input_messages.1.message.role", "user");
        oi.put("llm.input_messages.1.message.content", "Hi");
        oi.put("llm.output_messages.0.message.role", "assistant");
        oi.put("llm.output_messages.0.message.content", "Hello");
        oi.put("llm.token_count.prompt", 12);
        oi.put("llm.token_count.prompt_details.cache_read", 8);
        oi.put("llm.token_count.prompt_details.cache_write", 4);
        oi.put("llm.token_count.completion_details.reasoning", 2);
        oi.put("llm.tools.0.tool.json_schema", "{\"type\":\"function\",\"function\":{\"name\":\"w\"}}");
        Message answer = SpanAssembly.assemble("s", List.of(span("0000000000000002", null, 1, 10, "llm", oi)))
                .messages().get(1);
        assertThat(answer.usage()).isEqualTo(new SpanAssembly.Usage(12L, null, 8L, 4L, 2L, 9L, null, null));
        assertThat(answer.systemInstructions()).isEqualTo("Be brief.");
        assertThat(answer.toolDefinitions()).isEqualTo("[{\"type\":\"function\",\"function\":{\"name\":\"w\"}}]");
    }

    @Test
    void theResponsesApiAsTheOfficialInstrumentationWritesItIsOneTurnWithItsStepsOnce() {
        // Output: one message of all items; input re-sent: one message per item, the function output as a user's,
        // calls matched by call_id (id is the Responses API's own item id), reasoning words in "text".
        String reasoning = "{\"type\":\"reasoning\",\"text\":\"I need the weather.\"}";
        String call = "{\"type\":\"tool_call\",\"id\":\"fc_1\",\"call_id\":\"call_1\",\"name\":\"weather\","
                + "\"arguments\":\"{\\\"city\\\":\\\"Oslo\\\"}\"}";
        String question = message("user", "text", "Coat in Oslo?");
        List<SpanFact> spans = List.of(
                call("0000000000000002", null, 1, 10, List.of(question),
                        List.of("{\"role\":\"assistant\",\"parts\":[" + reasoning + "," + call + "]}")),
                call("0000000000000003", null, 20, 30, List.of(question,
                        "{\"role\":\"assistant\",\"parts\":[" + reasoning + "]}",
                        "{\"role\":\"assistant\",\"parts\":[" + call + "]}",
                        "{\"role\":\"user\",\"parts\":[{\"type\":\"tool_call_response\",\"call_id\":\"call_1\","
                                + "\"response\":\"3 C, snow\"}]}"),
                        List.of(message("assistant", "text", "Take a coat."))));

        Session session = SpanAssembly.assemble("s", spans);

        assertThat(contents(session)).containsExactly("user: Coat in Oslo?", "assistant: Take a coat.");
        assertThat(session.messages().get(1).steps()).containsExactly(
                new Step("reasoning", "I need the weather.", null, null, null, null, null),
                new Step("tool", null, "weather", "{\"city\":\"Oslo\"}", "3 C, snow", null, "call_1"));
    }

    @Test
    void parallelToolCallsStayInCallOrderWhateverOrderTheirResultsAndExecutionsCameIn() {
        String calls = "{\"role\":\"assistant\",\"parts\":[{\"type\":\"tool_call\",\"id\":\"a\",\"name\":"
                + "\"weather\",\"arguments\":{\"city\":\"Paris\"}},{\"type\":\"tool_call\",\"id\":\"b\","
                + "\"name\":\"weather\",\"arguments\":{\"city\":\"London\"}}]}";
        String results = "{\"role\":\"tool\",\"parts\":[{\"type\":\"tool_call_response\",\"id\":\"b\","
                + "\"response\":\"London: 14\"}]},{\"role\":\"tool\",\"parts\":[{\"type\":"
                + "\"tool_call_response\",\"id\":\"a\",\"response\":\"Paris: 18\"}]}";
        List<SpanFact> withMessages = List.of(chat("0000000000000002", 1, 10, List.of(USER), List.of(calls)),
                chat("0000000000000005", 20, 30, List.of(USER, calls, results), List.of(ANSWER)));
        // Without the results in the messages: the executions, the second call's first, give them by call id.
        List<SpanFact> withSpans = List.of(chat("0000000000000002", 1, 10, List.of(USER), List.of(calls)),
                tool("0000000000000003", 11, 12, "b", "weather", "London: 14", false),
                tool("0000000000000004", 13, 14, "a", "weather", "Paris: 18", false),
                chat("0000000000000005", 20, 30, List.of(USER, calls), List.of(ANSWER)));

        for (List<SpanFact> spans : List.of(withMessages, withSpans)) {
            assertThat(SpanAssembly.assemble("s", spans).messages().get(1).steps())
                    .extracting(Step::toolCallId, Step::toolResult)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple("a", "Paris: 18"),
                            org.assertj.core.groups.Tuple.tuple("b", "London: 14"));
        }
    }

    @Test
    void aSummarisedHistoryOrAToolCallReSentWithoutItsReasoningAddsNothingTwice() {
        String q1 = message("user", "text", "What broke the export?");
        String a1 = message("assistant", "text", "The split drops the last row.");
        String q2 = message("user", "text", "And the fix?");
        String a2 = message("assistant", "text", "Use splitlines().");
        String summary = message("user", "text", "Summary of the conversation so far: the export lost a row.");
        String q3 = message("user", "text", "Ship it?");
        String strippedCall = "{\"role\":\"assistant\",\"parts\":[{\"type\":\"tool_call\",\"id\":\"call-1\","
                + "\"name\":\"search\",\"arguments\":{\"q\":\"split\"}}]}";
        List<SpanFact> spans = List.of(
                chat("0000000000000002", 1, 10, List.of(q1), List.of(a1)),
                chat("0000000000000003", 20, 30, List.of(q1, a1, q2), List.of(CALL)),
                // The call re-sent without its reasoning and words: the same call, by its id.
                chat("0000000000000004", 40, 50, List.of(q1, a1, q2, strippedCall, TOOL_RESULT), List.of(a2)),
                // Older turns replaced by a summary, the recent ones kept.
                chat("0000000000000005", 60, 70, List.of(summary, q2, strippedCall, TOOL_RESULT, a2, q3),
                        List.of(message("assistant", "text", "Yes."))));

        Session session = SpanAssembly.assemble("s", spans);

        assertThat(contents(session)).containsExactly("user: What broke the export?",
                "assistant: The split drops the last row.", "user: And the fix?", "assistant: Use splitlines().",
                "user: Ship it?", "assistant: Yes.");
        assertThat(session.messages().get(3).steps()).extracting(Step::type, Step::toolResult).containsExactly(
                org.assertj.core.groups.Tuple.tuple("reasoning", null),
                org.assertj.core.groups.Tuple.tuple("reasoning", null),
                org.assertj.core.groups.Tuple.tuple("tool", "3 hits in csv.py"));
    }

    /** A structured message of one part. */
    private static String message(String role, String type, String content) {
        return "{\"role\":\"" + role + "\",\"parts\":[{\"type\":\"" + type + "\",\"content\":\"" + content
                + "\"}]}";
    }

    private static SpanFact call(String spanId, String parent, long startMs, long endMs, List<String> input,
            List<String> output) {
        return span(spanId, parent, startMs, endMs, "chat", Map.of("gen_ai.operation.name", "chat",
                "gen_ai.input.messages", "[" + String.join(",", input) + "]",
                "gen_ai.output.messages", "[" + String.join(",", output) + "]"));
    }

    private static final String TOOL_RESULT = "{\"role\":\"tool\",\"parts\":[{\"type\":\"tool_call_response\","
            + "\"id\":\"call-1\",\"response\":\"3 hits in csv.py\"}]}";

    /** A chat call with its input and output messages (JSON arrays' elements). */
    private static SpanFact chat(String spanId, long startMs, long endMs, List<String> input, List<String> output) {
        return span(spanId, "0000000000000001", startMs, endMs, "chat", Map.of("gen_ai.operation.name", "chat",
                "gen_ai.input.messages", "[" + String.join(",", input) + "]",
                "gen_ai.output.messages", "[" + String.join(",", output) + "]"));
    }

    private static List<String> contents(Session session) {
        return session.messages().stream().map(m -> m.role() + ": " + m.content()).toList();
    }

    @Test
    void aTrimmedHistoryThatLeavesOutTheToolCallingMessageAddsNothingTwice() {
        List<SpanFact> spans = List.of(chat("0000000000000002", 1, 10, List.of(USER), List.of(CALL)),
                chat("0000000000000004", 20, 30, List.of(USER, TOOL_RESULT), List.of(ANSWER)));

        Session session = SpanAssembly.assemble("s", spans);

        assertThat(contents(session)).containsExactly("user: Why does the CSV export drop its last row?",
                "assistant: The split drops the last line: use splitlines().");
        assertThat(session.messages().get(1).steps()).extracting(Step::type)
                .containsExactly("reasoning", "reasoning", "tool");
        assertThat(session.messages().get(1).steps().get(2).toolResult()).isEqualTo("3 hits in csv.py");
    }

    @Test
    void aUserRepeatingTheSameWordsIsTwoTurnsWithHistoryOrWithout() {
        String again = "{\"role\":\"assistant\",\"parts\":[{\"type\":\"text\",\"content\":\"Still splitlines().\"}]}";
        List<SpanFact> withHistory = List.of(chat("0000000000000002", 1, 10, List.of(USER), List.of(ANSWER)),
                chat("0000000000000003", 20, 30, List.of(USER, ANSWER, USER), List.of(again)));
        List<SpanFact> without = List.of(chat("0000000000000002", 1, 10, List.of(USER), List.of(ANSWER)),
                chat("0000000000000003", 20, 30, List.of(USER), List.of(again)));

        for (List<SpanFact> spans : List.of(withHistory, without)) {
            assertThat(contents(SpanAssembly.assemble("s", spans))).containsExactly(
                    "user: Why does the CSV export drop its last row?",
                    "assistant: The split drops the last line: use splitlines().",
                    "user: Why does the CSV export drop its last row?", "assistant: Still splitlines().");
        }
    }

    @Test
    void aWindowOfTheHistoryAndAFrameworkSpanAroundTheClientsSpanAddNothingTwice() {
        String next = "{\"role\":\"user\",\"parts\":[{\"type\":\"text\",\"content\":\"And the header?\"}]}";
        String reply = "{\"role\":\"assistant\",\"parts\":[{\"type\":\"text\",\"content\":\"Keep it.\"}]}";
        List<SpanFact> spans = List.of(
                chat("0000000000000002", 1, 10, List.of(USER), List.of(ANSWER)),
                // A framework's span around the client's: the same call, stated twice.
                chat("0000000000000003", 20, 40, List.of(USER, ANSWER, next), List.of(reply)),
                chat("0000000000000004", 21, 39, List.of(USER, ANSWER, next), List.of(reply)),
                // A window of the last two messages, then the same question again.
                chat("0000000000000005", 50, 60, List.of(next, reply, next), List.of(reply)));

        assertThat(contents(SpanAssembly.assemble("s", spans))).containsExactly(
                "user: Why does the CSV export drop its last row?",
                "assistant: The split drops the last line: use splitlines().",
                "user: And the header?", "assistant: Keep it.", "user: And the header?", "assistant: Keep it.");
    }

    @Test
    void theSameFiftySpanRunInAnyOrderAndSplitWithCopiesIsTheSameSession() {
        List<SpanFact> run = fiftySpanRun();
        assertThat(run).hasSize(50);
        Session expected = SpanAssembly.assemble(SpanAssembly.sessionId(run), run);
        assertThat(expected.messages()).hasSize(10);
        assertThat(expected.messages().get(9).steps()).extracting(Step::toolResult)
                .contains("result 4");
        long seed = Long.getLong("hindsight.test.seed", System.nanoTime());
        Random random = new Random(seed);
        for (int attempt = 0; attempt < 200; attempt++) {
            List<SpanFact> arrived = new ArrayList<>(run);
            for (int copies = random.nextInt(10); copies > 0; copies--) {
                arrived.add(run.get(random.nextInt(run.size())));
            }
            Collections.shuffle(arrived, random);
            assertThat(SpanAssembly.assemble(SpanAssembly.sessionId(arrived), arrived)).as("seed " + seed)
                    .isEqualTo(expected);
        }
        // A part of the run is a consistent session too (the rest may come later): its first turns.
        List<SpanFact> firstHalf = run.stream().filter(s -> s.startNanos() < 250 * MS).toList();
        Session early = SpanAssembly.assemble(SpanAssembly.sessionId(firstHalf), firstHalf);
        assertThat(expected.messages().subList(0, early.messages().size() - 1))
                .isEqualTo(early.messages().subList(0, early.messages().size() - 1));
    }

    /** Five turns; each: a chat that calls a tool, its execution, a chat that answers; plus HTTP noise spans. */
    private static List<SpanFact> fiftySpanRun() {
        List<SpanFact> spans = new ArrayList<>();
        List<String> history = new ArrayList<>();
        int id = 1;
        spans.add(span(hex(id++), null, 0, 1000, "invoke_agent", Map.of("gen_ai.operation.name", "invoke_agent",
                "gen_ai.conversation.id", "conv-50")));
        for (int turn = 0; turn < 5; turn++) {
            long t = turn * 100L + 1;
            history.add("{\"role\":\"user\",\"parts\":[{\"type\":\"text\",\"content\":\"question " + turn + "\"}]}");
            String call = "{\"role\":\"assistant\",\"parts\":[{\"type\":\"reasoning\",\"content\":\"think " + turn
                    + "\"},{\"type\":\"tool_call\",\"id\":\"c" + turn + "\",\"name\":\"lookup\",\"arguments\":{\"n\":"
                    + turn + "}}]}";
            spans.add(span(hex(id++), hex(1), t, t + 10, "chat", Map.of("gen_ai.operation.name", "chat",
                    "gen_ai.input.messages", "[" + String.join(",", history) + "]",
                    "gen_ai.output.messages", "[" + call + "]", "gen_ai.usage.input_tokens", 10 + turn)));
            history.add(call);
            spans.add(tool(hex(id++), t + 11, t + 20, "c" + turn, "lookup", "result " + turn, false));
            String answer = "{\"role\":\"assistant\",\"parts\":[{\"type\":\"text\",\"content\":\"answer " + turn
                    + "\"}]}";
            spans.add(span(hex(id++), hex(1), t + 21, t + 40, "chat", Map.of("gen_ai.operation.name", "chat",
                    "gen_ai.input.messages", "[" + String.join(",", history) + "]",
                    "gen_ai.output.messages", "[" + answer + "]")));
            history.add(answer);
            for (int noise = 0; noise < 5; noise++) {
                spans.add(span(hex(id++), hex(1), t + 41 + noise, t + 42 + noise, "GET /kb",
                        Map.of("http.request.method", "GET")));
            }
        }
        while (spans.size() < 50) {
            spans.add(span(hex(id++), hex(1), 900 + id, 901 + id, "SELECT", Map.of("db.system", "postgresql")));
        }
        return spans;
    }

    /**
     * Whatever an exporter sends that ingest accepts, the assembly must read without failing (a failure would
     * dead-letter every later span of the session) and give the same session in any order: spans with the attributes
     * the assembly reads holding values of every JSON type, malformed message JSON, odd indexes and event names.
     */
    @Test
    void anySpansWhateverTheirAttributesHoldAssembleWithoutFailingAndInAnyOrderAlike() {
        long seed = Long.getLong("hindsight.test.seed", System.nanoTime());
        Random random = new Random(seed);
        for (int run = 0; run < 300; run++) {
            List<SpanFact> spans = new ArrayList<>();
            for (int i = random.nextInt(8); i >= 0; i--) {
                spans.add(arbitrary(random, i));
            }
            List<SpanFact> shuffled = new ArrayList<>(spans);
            Collections.shuffle(shuffled, random);
            String id = SpanAssembly.sessionId(spans);
            Session session = SpanAssembly.assemble(id, spans);
            assertThat(SpanAssembly.sessionId(shuffled)).as("seed %d", seed).isEqualTo(id);
            assertThat(SpanAssembly.assemble(id, shuffled)).as("seed %d", seed).isEqualTo(session);
            assertThat(session.messages()).allSatisfy(m -> assertThat(m.content()).isNotNull());
        }
    }

    private static final List<String> KEYS = List.of("gen_ai.operation.name", "gen_ai.input.messages",
            "gen_ai.output.messages", "gen_ai.conversation.id", "session.id", "gen_ai.agent.name",
            "gen_ai.request.model", "gen_ai.response.model", "llm.model_name", "gen_ai.usage.input_tokens",
            "gen_ai.usage.output_tokens", "llm.token_count.prompt", "openinference.span.kind", "gen_ai.tool.name",
            "gen_ai.tool.call.id", "gen_ai.tool.call.result", "gen_ai.tool.call.arguments", "tool.name", "output.value",
            "llm.input_messages.0.message.role", "llm.input_messages.x.message.content",
            "llm.input_messages.99999999999.message.role", "llm.input_messages.1", "llm.output_messages.0.message.role",
            "llm.output_messages.0.message.tool_calls.0.tool_call.function.name",
            "llm.output_messages.0.message.tool_calls.y.tool_call.id", "llm.input_messages.-1.message.content");

    private static SpanFact arbitrary(Random random, int index) {
        ObjectNode attributes = JSON.createObjectNode();
        for (int k = random.nextInt(8); k > 0; k--) {
            attributes.set(KEYS.get(random.nextInt(KEYS.size())), arbitraryValue(random, 3));
        }
        if (random.nextBoolean()) {
            attributes.put("gen_ai.operation.name", List.of("chat", "execute_tool", "invoke_agent", "text_completion")
                    .get(random.nextInt(4)));
        }
        List<SpanFact.Event> events = new ArrayList<>();
        for (int e = random.nextInt(3); e > 0; e--) {
            ObjectNode eventAttributes = JSON.createObjectNode();
            eventAttributes.set(List.of("content", "message", "role", "tool_calls", "id").get(random.nextInt(5)),
                    arbitraryValue(random, 2));
            events.add(new SpanFact.Event(List.of("gen_ai.user.message", "gen_ai.choice", "gen_ai.message", ".message",
                    "x.message", "gen_ai.tool.message", "gen_ai.").get(random.nextInt(7)), random.nextInt(100) * MS,
                    eventAttributes));
        }
        return new SpanFact(TRACE, hex(index + 1), null, "span", "GEN_AI", random.nextInt(50) * MS,
                random.nextInt(100) * MS, random.nextBoolean() ? "ERROR" : "UNSET",
                random.nextBoolean() ? null : "failed", attributes, events, object(Map.of()));
    }

    /** A JSON value of any type; strings are sometimes message JSON, sometimes broken JSON. */
    private static JsonNode arbitraryValue(Random random, int depth) {
        return switch (random.nextInt(depth <= 0 ? 6 : 9)) {
            case 0 -> JSON.getNodeFactory().textNode("[" + USER + "," + CALL + "]");
            case 1 -> JSON.getNodeFactory().textNode("[{\"role\": 3, \"parts\": {\"type\": []}}, 7, null]");
            case 2 -> JSON.getNodeFactory().textNode("{not json");
            case 3 -> JSON.getNodeFactory().numberNode(random.nextLong());
            case 4 -> random.nextBoolean() ? JSON.getNodeFactory().nullNode()
                    : JSON.getNodeFactory().booleanNode(random.nextBoolean());
            case 5 -> JSON.getNodeFactory().textNode(List.of("user", "assistant", "tool", "system", "ai", "")
                    .get(random.nextInt(6)));
            case 6 -> {
                var array = JSON.createArrayNode();
                for (int i = random.nextInt(3); i > 0; i--) {
                    array.add(arbitraryValue(random, depth - 1));
                }
                yield array;
            }
            default -> {
                ObjectNode object = JSON.createObjectNode();
                for (String key : List.of("role", "parts", "type", "content", "id", "name", "arguments", "response")) {
                    if (random.nextInt(3) == 0) {
                        object.set(key, arbitraryValue(random, depth - 1));
                    }
                }
                yield object;
            }
        };
    }

    private static final String USER = "{\"role\":\"user\",\"parts\":[{\"type\":\"text\","
            + "\"content\":\"Why does the CSV export drop its last row?\"}]}";
    private static final String CALL = "{\"role\":\"assistant\",\"parts\":[{\"type\":\"reasoning\","
            + "\"content\":\"The last row is lost: look at how lines are split.\"},{\"type\":\"text\","
            + "\"content\":\"Let me search.\"},{\"type\":\"tool_call\",\"id\":\"call-1\",\"name\":\"search\","
            + "\"arguments\":{\"q\":\"split\"}}]}";
    private static final String ANSWER = "{\"role\":\"assistant\",\"parts\":[{\"type\":\"text\","
            + "\"content\":\"The split drops the last line: use splitlines().\"}]}";

    private static SpanFact tool(String spanId, long startMs, long endMs, String callId, String name, String result,
            boolean failed) {
        Map<String, Object> attributes = new java.util.HashMap<>(Map.of("gen_ai.operation.name", "execute_tool",
                "gen_ai.tool.name", name, "gen_ai.tool.call.id", callId));
        if (result != null) {
            attributes.put("gen_ai.tool.call.result", result);
        }
        return new SpanFact(TRACE, spanId, "0000000000000001", "execute_tool " + name, "GEN_AI", startMs * MS,
                endMs * MS, failed ? "ERROR" : "UNSET", failed ? "timeout" : null, object(attributes), List.of(),
                object(Map.of("service.name", "agent")));
    }

    private static SpanFact span(String spanId, String parent, long startMs, long endMs, String name,
            Map<String, Object> attributes) {
        return new SpanFact(TRACE, spanId, parent, name, "GEN_AI", startMs * MS, endMs * MS, "UNSET", null,
                object(attributes), List.of(), object(Map.of("service.name", "agent")));
    }

    private static JsonNode object(Map<String, Object> values) {
        ObjectNode object = JSON.createObjectNode();
        values.forEach((key, value) -> object.set(key, JSON.valueToTree(value)));
        return object;
    }

    /** Span ids as an SDK makes them: random, so their order says nothing of the spans' order in time. */
    private static String hex(int id) {
        return String.format("%016x", id * 0x9E3779B97F4A7C15L);
    }
}
