package dev.hindsight.query.session;

import dev.hindsight.query.console.ConsolePaths;
import dev.hindsight.query.console.Text;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigDecimal;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A session as its page shows it, built from the same {@link SessionView} the JSON API answers with: the conversation
 * in message order, each message's thinking steps in step order, summaries, and by kind the positions with the day's
 * cash and portfolio value (trading) or the trace activities and the QA verdict whose evidence links to them (debug).
 * Long texts are cut to a preview; the message's own page shows them whole.
 */
record SessionPage(String id, String href, String kind, String startedAt, String completedAt, String outcome,
        String jobId, String date, String model, List<Field> attributes, List<Field> labels, int totalMessages,
        String sessionSummary, Text finalCodeDiff, Qa qa, List<Message> messages, List<Position> positions,
        Chart chart, List<Activity> activities, List<AgentNode> agents) {

    /** Characters of a message or step shown before "show all". */
    static final int PREVIEW = 2_000;

    public record Field(String name, String value) {
    }

    public record Message(int index, String anchor, String href, String role, Text content, String summary,
            String toolName, Text toolInput, String timestamp, boolean reconstructed, List<Step> steps,
            String usage, Text systemInstructions, Text toolDefinitions) {

        public boolean hasSteps() {
            return !steps.isEmpty();
        }
    }

    /** {@code agent}: the sub-agent that took the step, by name; {@code memory}: the memory operation it is. */
    public record Step(int order, String anchor, boolean tool, String toolName, Text content, Text arguments,
            Text result, Text error, String agent, String memory) {

        /** Whether any of the step's texts was cut to a preview. */
        public boolean truncated() {
            return Stream.of(content, arguments, result, error).anyMatch(t -> t != null && t.truncated());
        }
    }

    /**
     * One agent run of the tree, at its {@code level} (1 for the session's own agents): a sub-agent shows the task it
     * was given, its answer and how many steps it took.
     */
    public record AgentNode(String id, String anchor, int level, String name, String description, String parent,
            Text task, Text answer, int steps, String usage) {
    }

    public record Position(int actionId, String actionType, String symbol, String amount, String price,
            String cashAfter, String portfolioValue, String dailyProfit, String dailyReturnPct) {
    }

    public record Activity(int number, String anchor, String eventId, String timestamp, String type, Text payload) {
    }

    /** The QA verdict; each dimension's evidence links to the activities it cites. */
    public record Qa(String status, String score, String reason, String judgedAt, List<Dimension> dimensions) {

        public boolean completed() {
            return "completed".equals(status);
        }
    }

    public record Dimension(String name, String score, String rationale, List<Evidence> evidence) {
    }

    /** A cited event: a link to it on this page when the trace holds it, its id alone when it does not. */
    public record Evidence(String eventId, String anchor, boolean found) {
    }

    static SessionPage of(SessionView view, int preview) {
        List<Activity> activities = activities(view.activities(), preview);
        Map<String, String> anchorOf = new HashMap<>();
        activities.forEach(a -> anchorOf.putIfAbsent(a.eventId(), a.anchor()));
        List<Position> positions = positions(view.positions());
        String href = href(view.sessionId());
        List<AgentNode> agents = agents(view.agents(), preview);
        Map<String, String> agentNames = agentNames(view.agents());
        return new SessionPage(view.sessionId(), href, view.kind(), when(view.startedAt()), when(view.completedAt()),
                view.outcome(), view.trading() == null ? null : view.trading().jobId(),
                view.trading() == null || view.trading().date() == null ? null : view.trading().date().toString(),
                view.trading() != null ? view.trading().model() : fieldOf(view.attributes(), "model"),
                fields(view.attributes()), fields(view.labels()), view.totalMessages(), view.sessionSummary(),
                Text.of(view.finalCodeDiff(), preview), qa(view.qaResults(), anchorOf),
                view.messages().stream().map(m -> message(href, m, preview, agentNames)).toList(), positions,
                Chart.of(positions), activities, agents);
    }

    /** The session's agents' names by agent id (empty when no agent ran inside another). */
    static Map<String, String> agentNames(String agentsJson) {
        Map<String, String> names = new HashMap<>();
        if (agentsJson != null) {
            new JsonArray(agentsJson).forEach(a -> names.put(((JsonObject) a).getString("agent_id"),
                    ((JsonObject) a).getString("name")));
        }
        return names;
    }

    /** The agents' tree as a list in tree order, each at its level (the page draws it as an ARIA tree). */
    private static List<AgentNode> agents(String json, int preview) {
        List<AgentNode> nodes = new ArrayList<>();
        if (json == null) {
            return nodes;
        }
        Map<String, Integer> levels = new HashMap<>();
        Map<String, String> names = new HashMap<>();
        for (Object item : new JsonArray(json)) {
            JsonObject agent = (JsonObject) item;
            String id = agent.getString("agent_id");
            String parent = agent.getString("parent_agent_id");
            int level = parent == null ? 1 : levels.getOrDefault(parent, 1) + 1;
            levels.put(id, level);
            names.put(id, agent.getString("name"));
            String task = null;
            String answer = null;
            int steps = 0;
            String usage = null;
            for (Object m : agent.getJsonArray("messages", new JsonArray())) {
                JsonObject message = (JsonObject) m;
                if ("user".equals(message.getString("role"))) {
                    task = task == null ? message.getString("content") : task;
                } else {
                    answer = message.getString("content");
                    steps += message.getJsonArray("thinking_steps", new JsonArray()).size();
                    JsonObject u = message.getJsonObject("usage");
                    usage = u == null ? usage : usage(new SessionView.MessageView.Usage(u.getLong("input_tokens"),
                            u.getLong("output_tokens"), u.getLong("latency_ms"), u.getString("model")));
                }
            }
            nodes.add(new AgentNode(id, "agent-" + id, level, agent.getString("name"),
                    agent.getString("description"), parent == null ? null : names.get(parent), Text.of(task, preview),
                    Text.of(answer, preview), steps, usage));
        }
        return nodes;
    }

    static String href(String sessionId) {
        return ConsolePaths.session(sessionId);
    }

    static String when(OffsetDateTime time) {
        return Text.when(time);
    }

    static Message message(String sessionHref, SessionView.MessageView m, int preview,
            Map<String, String> agentNames) {
        List<Step> steps = new ArrayList<>();
        JsonArray stored = new JsonArray(m.thinkingSteps() == null ? "[]" : m.thinkingSteps());
        List<JsonObject> ordered = new ArrayList<>();
        stored.forEach(step -> ordered.add((JsonObject) step));
        // Stored in step_order already; sorted again so the page never depends on how they were written.
        ordered.sort((a, b) -> Integer.compare(a.getInteger("step_order", 0), b.getInteger("step_order", 0)));
        for (JsonObject step : ordered) {
            int order = step.getInteger("step_order", 0);
            Object arguments = step.getValue("tool_arguments");
            steps.add(new Step(order, "m" + m.messageIndex() + "-s" + order, "tool".equals(step.getString("step_type")),
                    step.getString("tool_name"), Text.of(step.getString("content"), preview),
                    Text.of(arguments == null ? null : arguments instanceof String s ? s : pretty(arguments), preview),
                    Text.of(step.getString("tool_result"), preview), Text.of(step.getString("tool_error"), preview),
                    agentName(step.getString("agent_id"), agentNames), step.getString("memory_operation")));
        }
        return new Message(m.messageIndex(), "m" + m.messageIndex(), sessionHref + "/messages/" + m.messageIndex(),
                m.role(), Text.of(m.content(), preview), m.summary(), m.toolName(), Text.of(m.toolInput(), preview),
                when(m.timestamp()), Boolean.TRUE.equals(m.thinkingStepsReconstructed()), steps, usage(m.usage()),
                Text.of(m.systemInstructions(), preview), Text.of(m.toolDefinitions() == null ? null
                        : new JsonArray(m.toolDefinitions()).encodePrettily(), preview));
    }

    private static String agentName(String agentId, Map<String, String> agentNames) {
        if (agentId == null) {
            return null;
        }
        String name = agentNames.get(agentId);
        return name != null ? name : agentId;
    }

    /**
     * "gpt-5 · 130 tokens in (100 cached), 32 out (20 reasoning) · 49 ms · first token 12 ms": what the model calls
     * behind the message cost, when it is known.
     */
    static String usage(SessionView.MessageView.Usage usage) {
        if (usage == null) {
            return null;
        }
        List<String> parts = new ArrayList<>();
        if (usage.model() != null) {
            parts.add(usage.model());
        }
        if (usage.inputTokens() != null || usage.outputTokens() != null) {
            parts.add(String.format(Locale.ROOT, "%s tokens in%s, %s out%s",
                    usage.inputTokens() == null ? "?" : String.format(Locale.ROOT, "%,d", usage.inputTokens()),
                    of(usage.cacheReadInputTokens(), "cached") + of(usage.cacheWriteInputTokens(), "written to cache"),
                    usage.outputTokens() == null ? "?" : String.format(Locale.ROOT, "%,d", usage.outputTokens()),
                    of(usage.reasoningOutputTokens(), "reasoning")));
        }
        if (usage.latencyMs() != null) {
            parts.add(String.format(Locale.ROOT, "%,d ms", usage.latencyMs()));
        }
        if (usage.timeToFirstTokenMs() != null) {
            parts.add(String.format(Locale.ROOT, "first token %,d ms", usage.timeToFirstTokenMs()));
        }
        return parts.isEmpty() ? null : String.join(" · ", parts);
    }

    private static String of(Long tokens, String what) {
        return tokens == null ? "" : String.format(Locale.ROOT, " (%,d %s)", tokens, what);
    }

    private static String pretty(Object json) {
        if (json instanceof JsonObject object) {
            return object.encodePrettily();
        }
        if (json instanceof JsonArray array) {
            return array.encodePrettily();
        }
        return String.valueOf(json);
    }

    private static List<Field> fields(String json) {
        List<Field> fields = new ArrayList<>();
        if (json != null) {
            new JsonObject(json).forEach(e -> fields.add(new Field(e.getKey(),
                    e.getValue() instanceof String s ? s : String.valueOf(e.getValue()))));
        }
        return fields;
    }

    private static String fieldOf(String json, String name) {
        return json == null ? null : new JsonObject(json).getString(name);
    }

    private static List<Position> positions(String json) {
        List<Position> positions = new ArrayList<>();
        if (json == null) {
            return positions;
        }
        for (Object item : new JsonArray(json)) {
            JsonObject p = (JsonObject) item;
            positions.add(new Position(p.getInteger("action_id"), p.getString("action_type"), p.getString("symbol"),
                    number(p, "amount"), number(p, "price"), number(p, "cash_after"), number(p, "portfolio_value"),
                    number(p, "daily_profit"), number(p, "daily_return_pct")));
        }
        return positions;
    }

    private static String number(JsonObject object, String name) {
        Object value = object.getValue(name);
        return value == null ? null : new BigDecimal(value.toString()).toPlainString();
    }

    private static List<Activity> activities(String json, int preview) {
        List<Activity> activities = new ArrayList<>();
        if (json == null) {
            return activities;
        }
        for (Object item : new JsonArray(json)) {
            JsonObject a = (JsonObject) item;
            Object payload = a.getValue("payload");
            int number = activities.size() + 1;
            activities.add(new Activity(number, "e" + number, a.getString("event_id"), a.getString("timestamp"),
                    a.getString("event_type"), Text.of(payload == null ? null : pretty(payload), preview)));
        }
        return activities;
    }

    private static Qa qa(SessionView.QaResults results, Map<String, String> anchorOf) {
        if (results == null) {
            return null;
        }
        List<Dimension> dimensions = new ArrayList<>();
        if (results.rubric() != null) {
            new JsonObject(results.rubric()).forEach(entry -> {
                JsonObject dimension = (JsonObject) entry.getValue();
                List<Evidence> evidence = new ArrayList<>();
                JsonArray ids = dimension.getJsonArray("evidence_event_ids", new JsonArray());
                for (Object id : ids) {
                    String anchor = anchorOf.get(String.valueOf(id));
                    evidence.add(new Evidence(String.valueOf(id), anchor, anchor != null));
                }
                Object score = dimension.getValue("score");
                dimensions.add(new Dimension(entry.getKey(), score == null ? null : score.toString(),
                        dimension.getString("rationale"), evidence));
            });
        }
        return new Qa(results.status(), results.score() == null ? null
                : BigDecimal.valueOf(results.score()).stripTrailingZeros().toPlainString(), results.reason(),
                when(results.judgedAt()), dimensions);
    }
}
