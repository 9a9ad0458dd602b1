package dev.hindsight.query.otel;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * A session from the spans of an agent's runs (ADR 0012): a pure function of the set of spans, so that the same spans
 * give the same session in whatever order and however split they arrived. Spans are read in {@link SpanFact#ORDER}.
 *
 * <p>Each model call (GenAI {@code chat} / {@code text_completion} / {@code generate_content}, OpenInference {@code
 * LLM}) states its input and output messages: GenAI's {@code gen_ai.input.messages} / {@code gen_ai.output.messages}
 * (structured parts), the older per-message span events ({@code gen_ai.user.message}, {@code gen_ai.choice}, ...), or
 * OpenInference's {@code llm.input_messages.<i>.message.*}. A call's input re-sends the conversation so far, as the
 * agent shaped it (whole, trimmed, a window of its end, or none); the calls are merged into one conversation, each
 * message once ({@link #merge}), a user's repeated words as a new turn. The conversation is then read as Hindsight
 * reads one: a user message, then one assistant message per answer whose thinking steps are, in order, the reasoning
 * parts, the words said between tool calls, and the tool calls with their results (from the tool messages, else from
 * the tool executions' spans, GenAI {@code execute_tool} or OpenInference {@code TOOL}, which also give an error when
 * the span failed); the answer's last words are its content.
 */
final class SpanAssembly {

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * A thinking step: {@code reasoning} (content) or {@code tool} (name, arguments, result or error; a memory
     * operation is a tool step named after it, {@code memoryOperation} saying which). {@code agentId} is the sub-agent
     * that took it (its {@code invoke_agent} span's id), null for the session's own agent.
     */
    public record Step(String type, String content, String toolName, String toolArguments, String toolResult,
            String toolError, String toolCallId, String agentId, String memoryOperation) {

        Step(String type, String content, String toolName, String toolArguments, String toolResult, String toolError,
                String toolCallId) {
            this(type, content, toolName, toolArguments, toolResult, toolError, toolCallId, null, null);
        }
    }

    /**
     * What the model calls behind an answer cost: tokens summed over the calls (cache reads and writes are part of the
     * input, reasoning part of the output, as the conventions count them), their latency summed, the time to first
     * token of the last call that streamed, and the model of the last call.
     */
    public record Usage(Long inputTokens, Long outputTokens, Long cacheReadInputTokens, Long cacheWriteInputTokens,
            Long reasoningOutputTokens, Long latencyMillis, Long timeToFirstTokenMillis, String model) {
    }

    /**
     * A message of the session; an answer carries its usage and what its last call was told besides the conversation
     * (system instructions, tool definitions as a JSON array).
     */
    public record Message(int index, String role, String content, long atNanos, List<Step> steps, Usage usage,
            String systemInstructions, String toolDefinitions) {

        public Long inputTokens() {
            return usage == null ? null : usage.inputTokens();
        }

        public Long outputTokens() {
            return usage == null ? null : usage.outputTokens();
        }

        public Long latencyMillis() {
            return usage == null ? null : usage.latencyMillis();
        }

        public String model() {
            return usage == null ? null : usage.model();
        }
    }

    /**
     * One run of an agent ({@code invoke_agent} span): the session's own agents have no parent and no messages of
     * their own (theirs are the session's); a sub-agent has its parent's id and its own conversation.
     */
    public record Agent(String agentId, String parentAgentId, String name, String description, long startNanos,
            long endNanos, List<Message> messages) {
    }

    /**
     * {@code agents} is empty unless a sub-agent ran: then it is the tree, parents before their children;
     * {@code subject} the person the session is about, when a span names one.
     */
    public record Session(String sessionId, String model, String agent, String provider, Map<String, String> labels,
            long startedNanos, long lastNanos, List<Message> messages, List<Agent> agents, String subject) {
    }

    private SpanAssembly() {
    }

    /**
     * The session a set of spans belongs to: {@code gen_ai.conversation.id} exactly as given, else OpenInference's
     * {@code session.id}, from the first span in order that has one; else the first span's trace id in hex.
     */
    public static String sessionId(List<SpanFact> spans) {
        List<SpanFact> ordered = ordered(spans);
        for (String key : List.of("gen_ai.conversation.id", "session.id")) {
            for (SpanFact span : ordered) {
                String id = span.text(key);
                if (id != null && !id.isEmpty()) {
                    return id;
                }
            }
        }
        return ordered.isEmpty() ? null : ordered.get(0).traceId();
    }

    /**
     * The session: the conversation of its own agents' model calls, and, when agents ran inside them, each
     * sub-agent's own conversation. A sub-agent's steps are also placed in the answer of its parent during which it
     * started, after the steps taken before it started, so that a reader of the answer's steps alone sees all the work
     * in order; memory operations are placed the same way.
     */
    public static Session assemble(String sessionId, List<SpanFact> spans) {
        List<SpanFact> ordered = ordered(spans);
        SpanAgents agents = new SpanAgents(ordered);
        // Each span's agent once (HashMap: the session's own agents are the null key), in span order.
        Map<String, List<SpanFact>> byGroup = new HashMap<>();
        ordered.forEach(span -> byGroup.computeIfAbsent(agents.group(span), g -> new ArrayList<>()).add(span));
        Map<String, List<Draft>> drafts = new HashMap<>();
        List<String> groups = new ArrayList<>(agents.subAgentsDeepestFirst());
        groups.add(null);
        for (String group : groups) {
            List<SpanFact> own = byGroup.getOrDefault(group, List.of());
            List<Draft> conversation = drafts(own, group == null ? null : agents.span(group).spanId());
            List<Insert> inserts = new ArrayList<>();
            for (String child : agents.children(group)) {
                List<MutableStep> steps = new ArrayList<>();
                drafts.getOrDefault(child, List.of()).forEach(d -> steps.addAll(d.steps));
                inserts.add(new Insert(agents.span(child).startNanos(), steps));
            }
            own.stream().filter(SpanCalls::isMemoryOperation).forEach(memory -> inserts.add(new Insert(
                    memory.startNanos(), List.of(MutableStep.memory(memory, group == null ? null
                            : agents.span(group).spanId())))));
            inserts.sort(Comparator.comparingLong(Insert::at));
            inserts.forEach(insert -> splice(conversation, insert));
            drafts.put(group, conversation);
        }
        List<Message> messages = drafts.get(null).stream().map(Draft::message).toList();
        List<Agent> tree = new ArrayList<>();
        if (!agents.subAgentsDeepestFirst().isEmpty()) {
            for (String key : agents.preOrder()) {
                SpanFact span = agents.span(key);
                String parent = agents.parent(key);
                List<Message> own = drafts.containsKey(key) && parent != null
                        ? drafts.get(key).stream().map(Draft::message).toList() : List.of();
                tree.add(new Agent(span.spanId(), parent == null ? null : agents.span(parent).spanId(),
                        agentName(span), span.text("gen_ai.agent.description"), span.startNanos(), span.endNanos(),
                        own));
            }
        }
        SpanFact lastCall = null;
        for (SpanFact span : byGroup.getOrDefault(null, List.of())) {
            if (isModelCall(span)) {
                lastCall = span;
            }
        }
        String agent = agents.topLevel().stream().map(k -> agentName(agents.span(k))).filter(Objects::nonNull)
                .findFirst().orElseGet(() -> ordered.stream().map(s -> s.text("gen_ai.agent.name"))
                        .filter(Objects::nonNull).findFirst().orElse(null));
        String provider = lastCall == null ? null : SpanCalls.text(lastCall, SpanCalls.PROVIDER);
        long started = ordered.stream().mapToLong(SpanFact::startNanos).min().orElse(0);
        long last = ordered.stream().mapToLong(SpanFact::endNanos).max().orElse(0);
        return new Session(sessionId, lastCall == null ? null : model(lastCall), agent, provider, labels(ordered),
                started, last, messages, tree, subject(ordered));
    }

    /**
     * The person the session is about (ADR 0027): {@code user.id} (OpenTelemetry's and OpenInference's), else
     * {@code enduser.id} (the older convention), from the first span in order that has one, on the span or on its
     * resource.
     */
    static String subject(List<SpanFact> ordered) {
        for (String key : List.of("user.id", "enduser.id")) {
            for (SpanFact span : ordered) {
                String id = span.text(key);
                if (id == null && span.resource().get(key) != null && span.resource().get(key).isValueNode()) {
                    id = span.resource().get(key).asText();
                }
                if (id != null && !id.isEmpty()) {
                    return id;
                }
            }
        }
        return null;
    }

    private static String agentName(SpanFact agent) {
        String name = agent.text("gen_ai.agent.name");
        return name != null ? name : agent.text("agent.name") != null ? agent.text("agent.name") : agent.name();
    }

    /** One agent's messages, from its own model calls and tool executions; its steps carry {@code agentId}. */
    private static List<Draft> drafts(List<SpanFact> own, String agentId) {
        List<Turn> conversation = new ArrayList<>();
        for (SpanFact span : own) {
            if (isModelCall(span)) {
                merge(conversation, input(span), output(span).stream().map(turn -> turn.said(span)).toList(),
                        span);
            }
        }
        List<SpanFact> executions = own.stream().filter(SpanAssembly::isToolExecution).toList();
        List<Draft> drafts = messages(conversation, agentId);
        attachExecutions(drafts, executions);
        return drafts;
    }

    /** Steps taken elsewhere (a sub-agent, a memory operation) that started at {@code at}. */
    private record Insert(long at, List<MutableStep> steps) {
    }

    /**
     * Places the steps in the answer during which they started (the last whose first call started at or before them,
     * else the first), after its steps taken at or before then. With no answer to hold them they stay in the agents'
     * tree only.
     */
    private static void splice(List<Draft> drafts, Insert insert) {
        Draft target = null;
        for (Draft draft : drafts) {
            if (draft.assistant() && (target == null || draft.startNanos() <= insert.at())) {
                target = draft;
            }
        }
        if (target == null || insert.steps().isEmpty()) {
            return;
        }
        int at = 0;
        while (at < target.steps.size() && target.steps.get(at).at <= insert.at()) {
            at++;
        }
        target.steps.addAll(at, insert.steps());
    }

    /** The spans in order, each once (a span exported twice is one fact). */
    private static List<SpanFact> ordered(List<SpanFact> spans) {
        Map<String, SpanFact> unique = new TreeMap<>();
        for (SpanFact span : spans) {
            // Copies of a span are the same export; should two ever differ, the same one is kept whatever the order.
            unique.merge(span.traceId() + "/" + span.spanId(), span, (a, b) ->
                    a.toString().compareTo(b.toString()) <= 0 ? a : b);
        }
        List<SpanFact> ordered = new ArrayList<>(unique.values());
        ordered.sort(SpanFact.ORDER);
        return ordered;
    }

    static boolean isModelCall(SpanFact span) {
        String operation = span.text("gen_ai.operation.name");
        if (operation != null) {
            return operation.equals("chat") || operation.equals("text_completion")
                    || operation.equals("generate_content");
        }
        return "LLM".equals(span.text("openinference.span.kind"))
                || span.attributes().has("gen_ai.input.messages") || span.attributes().has("gen_ai.output.messages")
                || span.events().stream().anyMatch(e -> e.name().startsWith("gen_ai.")
                        && (e.name().endsWith(".message") || e.name().equals("gen_ai.choice")
                                || e.name().equals(SpanLogs.OPERATION_DETAILS)));
    }

    static boolean isToolExecution(SpanFact span) {
        return "execute_tool".equals(span.text("gen_ai.operation.name"))
                || "TOOL".equals(span.text("openinference.span.kind"));
    }

    private static String model(SpanFact call) {
        for (String key : List.of("gen_ai.response.model", "gen_ai.request.model", "llm.model_name")) {
            String model = call.text(key);
            if (model != null) {
                return model;
            }
        }
        return null;
    }

    /** Labels from the exporting resource: what names the agent's service and where it ran. */
    private static Map<String, String> labels(List<SpanFact> ordered) {
        Map<String, String> labels = new TreeMap<>();
        for (SpanFact span : ordered) {
            for (String key : List.of("service.name", "service.version", "service.namespace", "deployment.environment",
                    "deployment.environment.name")) {
                JsonNode value = span.resource().get(key);
                if (value != null && value.isValueNode() && !labels.containsKey(key)) {
                    labels.put(key, value.asText());
                }
            }
        }
        return labels;
    }

    // ---- messages as the calls state them

    /** One message of the conversation as a model call states it: in its input, or said by it ({@code said}). */
    record Turn(String role, List<Part> parts, SpanFact call, boolean said) {

        Turn(String role, List<Part> parts, SpanFact call) {
            this(role, parts, call, false);
        }

        Turn from(SpanFact span) {
            return new Turn(role, parts, span, false);
        }

        Turn said(SpanFact span) {
            return new Turn(role, parts, span, true);
        }

        /** When the message was there: a call's output at its end, its input at its start. */
        long at() {
            return said ? call.endNanos() : call.startNanos();
        }

        /**
         * What identifies the message when a later call re-sends it. A message of tool calls or tool responses that
         * all have ids is its role and those ids in order: ids name one call, and agents re-send such messages edited
         * (their reasoning or thinking-aloud left out). Any other message is its role and parts, without blank text
         * (one instrumentation writes a tool-calling message's text as "", another leaves it out) and with tool
         * arguments as JSON values (re-serialised by the agent, their spacing changes).
         */
        String fingerprint() {
            StringBuilder ids = new StringBuilder(role).append('\u0002');
            boolean byIds = false;
            for (Part part : parts) {
                if (part.type().startsWith("tool_call")) {
                    if (part.id() == null) {
                        byIds = false;
                        break;
                    }
                    byIds = true;
                    ids.append('\u0000').append(part.type()).append('\u0001').append(part.id());
                }
            }
            if (byIds) {
                return ids.toString();
            }
            StringBuilder text = new StringBuilder(role);
            for (Part part : parts) {
                if (!part.type().startsWith("tool_call") && blank(part.content())) {
                    continue;
                }
                text.append('\u0000').append(part.type()).append('\u0001').append(part.content()).append('\u0001')
                        .append(part.id()).append('\u0001').append(part.name()).append('\u0001')
                        .append(normalized(part.arguments()));
            }
            return text.toString();
        }
    }

    /** {@code text}, {@code reasoning}, {@code tool_call} (id, name, arguments) or {@code tool_call_response}. */
    record Part(String type, String content, String id, String name, String arguments) {
    }

    private static List<Turn> input(SpanFact span) {
        List<Turn> turns = structured(span.attributes().get("gen_ai.input.messages"));
        if (turns.isEmpty()) {
            turns = openInference(span, "llm.input_messages.");
        }
        if (turns.isEmpty()) {
            turns = events(span, false);
        }
        return turns;
    }

    /** The call's output; its turns carry no call yet ({@link Turn#from} sets it). */
    private static List<Turn> output(SpanFact span) {
        List<Turn> turns = structured(span.attributes().get("gen_ai.output.messages"));
        if (turns.isEmpty()) {
            turns = openInference(span, "llm.output_messages.");
        }
        if (turns.isEmpty()) {
            turns = events(span, true);
        }
        return turns;
    }

    /**
     * GenAI's structured messages: [{role, parts: [{type, content | id, name, arguments | response}]}]. A tool call and
     * its response are matched by {@code call_id} when a part has one (the Responses API's own item id is {@code id});
     * a reasoning part's words may be its {@code text}; a message of tool responses only is the tool's, whatever its
     * role (the official OpenAI instrumentation writes a Responses API function output as a user's). Consecutive
     * assistant or tool messages are one: an instrumentation may write a call's output items as one message and the
     * same items re-sent as input as one message each.
     */
    private static List<Turn> structured(JsonNode value) {
        JsonNode messages = parsed(value);
        List<Turn> turns = new ArrayList<>();
        if (messages == null || !messages.isArray()) {
            return turns;
        }
        for (JsonNode message : messages) {
            String role = message.path("role").asText("assistant");
            if (role.equals("system")) {
                continue;
            }
            List<Part> parts = new ArrayList<>();
            for (JsonNode part : message.path("parts")) {
                String type = part.path("type").asText("text");
                String id = text(part.hasNonNull("call_id") ? part.get("call_id") : part.get("id"));
                switch (type) {
                    case "tool_call" -> parts.add(new Part(type, null, id, text(part.get("name")),
                            text(part.get("arguments"))));
                    case "tool_call_response" -> parts.add(new Part(type, text(part.get("response")), id, null,
                            null));
                    default -> parts.add(new Part(type.equals("reasoning") ? "reasoning" : "text",
                            text(part.hasNonNull("content") ? part.get("content") : part.get("text")), null, null,
                            null));
                }
            }
            if (!parts.isEmpty() && parts.stream().allMatch(p -> p.type().equals("tool_call_response"))) {
                role = "tool";
            }
            Turn last = turns.isEmpty() ? null : turns.get(turns.size() - 1);
            if (last != null && last.role().equals(role) && !role.equals("user")) {
                List<Part> joined = new ArrayList<>(last.parts());
                joined.addAll(parts);
                turns.set(turns.size() - 1, new Turn(role, joined, null));
            } else {
                turns.add(new Turn(role, parts, null));
            }
        }
        return turns;
    }

    /**
     * OpenInference's flattened messages: prefix + i + ".message.role", ".message.content", ".message.tool_calls...".
     */
    private static List<Turn> openInference(SpanFact span, String prefix) {
        Map<Integer, Map<String, JsonNode>> byIndex = SpanCalls.indexed(span, prefix);
        List<Turn> turns = new ArrayList<>();
        for (Map<String, JsonNode> message : byIndex.values()) {
            String role = text(message.get("message.role"));
            if (role == null || role.equals("system")) {
                continue;
            }
            List<Part> parts = new ArrayList<>();
            String content = text(message.get("message.content"));
            if (role.equals("tool")) {
                parts.add(new Part("tool_call_response", content, text(message.get("message.tool_call_id")), null,
                        null));
            } else if (content != null) {
                parts.add(new Part("text", content, null, null, null));
            }
            Map<Integer, Map<String, JsonNode>> calls = new TreeMap<>();
            message.forEach((key, value) -> {
                if (key.startsWith("message.tool_calls.")) {
                    String rest = key.substring("message.tool_calls.".length());
                    int dot = rest.indexOf('.');
                    if (dot > 0) {
                        try {
                            calls.computeIfAbsent(Integer.parseInt(rest.substring(0, dot)), i -> new HashMap<>())
                                    .put(rest.substring(dot + 1), value);
                        } catch (NumberFormatException e) {
                            // not an indexed tool call
                        }
                    }
                }
            });
            calls.values().forEach(call -> parts.add(new Part("tool_call", null, text(call.get("tool_call.id")),
                    text(call.get("tool_call.function.name")), text(call.get("tool_call.function.arguments")))));
            turns.add(new Turn(role.equals("ai") ? "assistant" : role.equals("human") ? "user" : role, parts, null));
        }
        return turns;
    }

    /** The older GenAI conventions: one span event per message; {@code gen_ai.choice} for the output. */
    private static List<Turn> events(SpanFact span, boolean output) {
        List<Turn> turns = new ArrayList<>();
        for (SpanFact.Event event : span.events()) {
            boolean choice = event.name().equals("gen_ai.choice");
            // gen_ai.<role>.message, with a role: "gen_ai.message" or "x.message" name none.
            boolean message = event.name().startsWith("gen_ai.") && event.name().endsWith(".message")
                    && event.name().length() > "gen_ai.".length() + ".message".length();
            if (choice != output || !(choice || message) || event.name().equals("gen_ai.system.message")) {
                continue;
            }
            JsonNode body = choice ? parsed(event.attributes().get("message")) : event.attributes();
            if (body == null) {
                body = event.attributes();
            }
            String role = choice ? body.path("role").asText("assistant")
                    : event.name().substring("gen_ai.".length(), event.name().length() - ".message".length());
            List<Part> parts = new ArrayList<>();
            if (role.equals("tool")) {
                parts.add(new Part("tool_call_response", text(body.get("content")), text(body.get("id")), null, null));
            } else if (body.hasNonNull("content")) {
                parts.add(new Part("text", text(body.get("content")), null, null, null));
            }
            for (JsonNode call : parsedArray(body.get("tool_calls"))) {
                parts.add(new Part("tool_call", null, text(call.get("id")), text(call.path("function").get("name")),
                        text(call.path("function").get("arguments"))));
            }
            turns.add(new Turn(role, parts, null));
        }
        return turns;
    }

    /**
     * Adds what a call said to the conversation. A call re-sends the history it was given before what is new, but
     * agents shape that history: they trim it (leaving out a tool-calling message), keep a window of its end, or send
     * none at all. So each turn of the input is looked for in the conversation, in order, after the turn matched
     * before it; a turn not found after the last one found is new and is added. Three rules keep this honest:
     * <ul>
     * <li>A turn not found before one that is found is history the agent rewrote (a summary of earlier turns, an
     * edited message): the conversation holds what it stands for, so it adds nothing.</li>
     * <li>A user's words found in the conversation are a new turn when an answer followed them there that this call
     * does not re-send: the user asked the same thing again (with history {@code [Q, A, Q]}, the second Q is not
     * found after A anyway).</li>
     * <li>A call whose input and output are all already in the conversation, its output said by a call running at
     * the same time (a framework's span around the client's span for one model call), adds nothing.</li>
     * </ul>
     * The call's output is new otherwise.
     */
    private static void merge(List<Turn> conversation, List<Turn> input, List<Turn> output, SpanFact call) {
        int[] at = new int[input.size()];
        int from = 0;
        for (int i = 0; i < input.size(); i++) {
            at[i] = indexOf(conversation, input.get(i), from);
            if (at[i] >= 0) {
                from = at[i] + 1;
            }
        }
        if (sameCallSaidAgain(conversation, output, from, call)) {
            return;
        }
        int lastUser = -1;
        for (int i = 0; i < input.size(); i++) {
            lastUser = input.get(i).role().equals("user") ? i : lastUser;
        }
        if (lastUser >= 0 && at[lastUser] >= 0 && answeredSince(conversation, at, lastUser)) {
            for (int i = lastUser; i < input.size(); i++) {
                at[i] = -1;
            }
        }
        // A turn not found before one that is found was re-sent as history the conversation never held: the agent's
        // summary of earlier turns, or a message it edited. The conversation already holds what it stands for.
        int lastFound = -1;
        for (int i = 0; i < input.size(); i++) {
            lastFound = at[i] >= 0 ? i : lastFound;
        }
        for (int i = lastFound + 1; i < input.size(); i++) {
            if (at[i] < 0) {
                conversation.add(input.get(i).from(call));
            }
        }
        conversation.addAll(output);
    }

    /** Whether the output is found after {@code from}, each turn said by a call that overlaps {@code call} in time. */
    private static boolean sameCallSaidAgain(List<Turn> conversation, List<Turn> output, int from, SpanFact call) {
        if (output.isEmpty()) {
            return false;
        }
        int position = from;
        for (Turn turn : output) {
            int found = indexOf(conversation, turn, position);
            if (found < 0) {
                return false;
            }
            SpanFact other = conversation.get(found).call();
            if (other == null || other.spanId().equals(call.spanId()) || other.startNanos() >= call.endNanos()
                    || call.startNanos() >= other.endNanos()) {
                return false;
            }
            position = found + 1;
        }
        return true;
    }

    /**
     * Whether, after the user's turn matched at {@code at[user]}, the conversation holds an answer (an assistant turn
     * with words and no tool call) that none of the input's later turns re-sends.
     */
    private static boolean answeredSince(List<Turn> conversation, int[] at, int user) {
        Set<Integer> resent = new HashSet<>();
        for (int i = user + 1; i < at.length; i++) {
            resent.add(at[i]);
        }
        for (int i = at[user] + 1; i < conversation.size(); i++) {
            if (isAnswer(conversation.get(i)) && !resent.contains(i)) {
                return true;
            }
        }
        return false;
    }

    private static boolean isAnswer(Turn turn) {
        if (!turn.role().equals("assistant")) {
            return false;
        }
        boolean words = false;
        for (Part part : turn.parts()) {
            if (part.type().equals("tool_call")) {
                return false;
            }
            words |= part.type().equals("text") && !blank(part.content());
        }
        return words;
    }

    private static int indexOf(List<Turn> conversation, Turn turn, int from) {
        String fingerprint = turn.fingerprint();
        for (int i = from; i < conversation.size(); i++) {
            if (conversation.get(i).fingerprint().equals(fingerprint)) {
                return i;
            }
        }
        return -1;
    }

    // ---- the conversation as Hindsight's messages

    private static List<Draft> messages(List<Turn> conversation, String agentId) {
        List<Draft> drafts = new ArrayList<>();
        Answer answer = null;
        for (Turn turn : conversation) {
            if (turn.role().equals("user")) {
                if (answer != null) {
                    drafts.add(answer.draft(drafts.size()));
                    answer = null;
                }
                drafts.add(new Draft(drafts.size(), "user", texts(turn), turn.call().startNanos(),
                        turn.call().startNanos(), new ArrayList<>(), null, null, null));
            } else {
                if (answer == null) {
                    answer = new Answer(agentId);
                }
                answer.add(turn);
            }
        }
        if (answer != null) {
            drafts.add(answer.draft(drafts.size()));
        }
        return drafts;
    }

    /** JSON text as its values say it (spacing and escapes aside); other text as it is. */
    private static String normalized(String arguments) {
        if (arguments == null || arguments.isBlank()) {
            return arguments;
        }
        try {
            return JSON.readTree(arguments).toString();
        } catch (JsonProcessingException notJson) {
            return arguments;
        }
    }

    private static boolean blank(String text) {
        return text == null || text.isBlank();
    }

    private static String texts(Turn turn) {
        List<String> texts = turn.parts().stream().filter(p -> p.type().equals("text") && p.content() != null)
                .map(Part::content).toList();
        return String.join("\n", texts);
    }

    /** A message before its steps are final: sub-agents' steps and memory operations may still be placed in it. */
    private record Draft(int index, String role, String content, long atNanos, long startNanos,
            List<MutableStep> steps, Usage usage, String systemInstructions, String toolDefinitions) {

        boolean assistant() {
            return role.equals("assistant");
        }

        Message message() {
            return new Message(index, role, content, atNanos, steps.stream().map(MutableStep::step).toList(), usage,
                    systemInstructions, toolDefinitions);
        }
    }

    /** What the agent did between a user's message and the next: one assistant message with its steps. */
    private static final class Answer {

        private final String agentId;
        private final List<MutableStep> steps = new ArrayList<>();
        private final Map<String, SpanFact> calls = new LinkedHashMap<>();

        Answer(String agentId) {
            this.agentId = agentId;
        }

        void add(Turn turn) {
            if (turn.call() != null && turn.role().equals("assistant")) {
                calls.putIfAbsent(turn.call().spanId(), turn.call());
            }
            long at = turn.at();
            for (Part part : turn.parts()) {
                switch (part.type()) {
                    case "tool_call" -> steps.add(MutableStep.tool(part.id(), part.name(), part.arguments(), at,
                            agentId));
                    case "tool_call_response" -> resultFor(part.id()).ifPresent(step -> step.result = part.content());
                    // No step without content: a tool-calling message often has empty text ("" in LangChain).
                    case "reasoning" -> {
                        if (!blank(part.content())) {
                            steps.add(MutableStep.reasoning(part.content(), false, at, agentId));
                        }
                    }
                    default -> {
                        // Blank words are kept until draft() knows whether they are the answer, kept as sent.
                        if (turn.role().equals("assistant") && part.content() != null) {
                            steps.add(MutableStep.reasoning(part.content(), true, at, agentId));
                        }
                    }
                }
            }
        }

        private java.util.Optional<MutableStep> resultFor(String id) {
            return steps.stream().filter(s -> s.tool && s.result == null && s.error == null
                    && (id == null || id.equals(s.callId))).findFirst();
        }

        Draft draft(int index) {
            // The last words said are the answer; words said before a later step are thinking aloud.
            String content = "";
            int last = steps.size() - 1;
            if (last >= 0 && steps.get(last).said) {
                content = steps.remove(last).content;
            }
            steps.removeIf(step -> step.said && blank(step.content));
            Long[] tokens = new Long[5];
            List<List<String>> names = List.of(SpanCalls.INPUT_TOKENS, SpanCalls.OUTPUT_TOKENS,
                    SpanCalls.CACHE_READ_TOKENS, SpanCalls.CACHE_WRITE_TOKENS, SpanCalls.REASONING_TOKENS);
            long latency = 0;
            long at = 0;
            long start = Long.MAX_VALUE;
            String model = null;
            Long firstToken = null;
            String instructions = null;
            String tools = null;
            for (SpanFact call : calls.values()) {
                for (int i = 0; i < tokens.length; i++) {
                    tokens[i] = add(tokens[i], SpanCalls.number(call, names.get(i)));
                }
                latency += Math.max(0, call.endNanos() - call.startNanos());
                at = Math.max(at, call.endNanos());
                start = Math.min(start, call.startNanos());
                String called = SpanAssembly.model(call);
                model = called != null ? called : model;
                Long ttft = SpanCalls.timeToFirstTokenMillis(call);
                firstToken = ttft != null ? ttft : firstToken;
                String told = SpanCalls.systemInstructions(call);
                instructions = told != null ? told : instructions;
                String offered = SpanCalls.toolDefinitions(call);
                tools = offered != null ? offered : tools;
            }
            Usage usage = calls.isEmpty() ? null : new Usage(tokens[0], tokens[1], tokens[2], tokens[3], tokens[4],
                    latency / 1_000_000, firstToken, model);
            return new Draft(index, "assistant", content, at, calls.isEmpty() ? 0 : start, steps, usage,
                    instructions, tools);
        }

        private static Long add(Long sum, Long value) {
            if (value == null) {
                return sum;
            }
            return sum == null ? value : Long.valueOf(sum + value);
        }
    }

    private static final class MutableStep {
        boolean tool;
        boolean said;
        long at;
        String agentId;
        String memoryOperation;
        String content;
        String callId;
        String name;
        String arguments;
        String result;
        String error;

        static MutableStep tool(String id, String name, String arguments, long at, String agentId) {
            MutableStep step = new MutableStep();
            step.tool = true;
            step.callId = id;
            step.name = name;
            step.arguments = arguments;
            step.at = at;
            step.agentId = agentId;
            return step;
        }

        static MutableStep reasoning(String content, boolean said, long at, String agentId) {
            MutableStep step = new MutableStep();
            step.content = content;
            step.said = said;
            step.at = at;
            step.agentId = agentId;
            return step;
        }

        /** A memory operation's span as a tool step named after the operation. */
        static MutableStep memory(SpanFact span, String agentId) {
            String operation = span.text("gen_ai.operation.name");
            MutableStep step = tool(null, operation, SpanCalls.memoryArguments(span), span.startNanos(), agentId);
            step.memoryOperation = operation;
            if (span.failed()) {
                step.error = span.statusMessage() != null ? span.statusMessage() : "failed";
            } else {
                step.result = SpanCalls.memoryResult(span);
            }
            return step;
        }

        Step step() {
            return tool ? new Step("tool", null, name, arguments, result, error, callId, agentId, memoryOperation)
                    : new Step("reasoning", content, null, null, null, null, null, agentId, null);
        }
    }

    /**
     * Results and errors from the tool executions' spans, for tool steps the messages gave none: matched by call id,
     * else by tool name in order.
     */
    private static void attachExecutions(List<Draft> drafts, List<SpanFact> executions) {
        List<SpanFact> unused = new ArrayList<>(executions);
        for (Draft draft : drafts) {
            for (MutableStep step : draft.steps()) {
                if (unused.isEmpty()) {
                    return;
                }
                if (!step.tool || step.result != null || step.error != null) {
                    continue;
                }
                SpanFact execution = match(unused, step.callId, step.name);
                if (execution != null) {
                    unused.remove(execution);
                    String result = execution.text("gen_ai.tool.call.result") != null
                            ? execution.text("gen_ai.tool.call.result") : execution.text("output.value");
                    if (execution.failed()) {
                        step.error = execution.statusMessage() != null ? execution.statusMessage() : "failed";
                    } else {
                        step.result = result;
                    }
                    if (step.arguments == null) {
                        step.arguments = execution.text("gen_ai.tool.call.arguments");
                    }
                }
            }
        }
    }

    private static SpanFact match(List<SpanFact> executions, String callId, String toolName) {
        if (callId != null) {
            for (SpanFact execution : executions) {
                if (callId.equals(execution.text("gen_ai.tool.call.id"))) {
                    return execution;
                }
            }
        }
        for (SpanFact execution : executions) {
            String id = execution.text("gen_ai.tool.call.id");
            if (id != null && callId != null) {
                continue;   // another call's execution
            }
            String name = execution.text("gen_ai.tool.name") != null ? execution.text("gen_ai.tool.name")
                    : execution.text("tool.name");
            if (Objects.equals(name, toolName)) {
                return execution;
            }
        }
        return null;
    }

    private static JsonNode parsed(JsonNode value) {
        if (value == null || value.isNull()) {
            return null;
        }
        if (value.isTextual()) {
            try {
                return JSON.readTree(value.textValue());
            } catch (JsonProcessingException e) {
                return null;
            }
        }
        return value;
    }

    private static Iterable<JsonNode> parsedArray(JsonNode value) {
        JsonNode array = parsed(value);
        return array != null && array.isArray() ? array : List.of();
    }

    private static String text(JsonNode value) {
        if (value == null || value.isNull()) {
            return null;
        }
        return value.isTextual() ? value.textValue() : value.toString();
    }
}
