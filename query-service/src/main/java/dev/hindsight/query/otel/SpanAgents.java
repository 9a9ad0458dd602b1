package dev.hindsight.query.otel;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The agents of a set of spans and which one each span worked for. An agent run is a GenAI {@code invoke_agent} span
 * or an OpenInference {@code AGENT} span; a span works for the nearest agent among its ancestors. An agent with no
 * agent above it is one of the session's own (one per turn, often); an agent inside another is a sub-agent, with its
 * own conversation. Spans whose ancestors have not arrived yet work for the session's own agents until they do: the
 * session is assembled again when they arrive.
 */
final class SpanAgents {

    private final Map<String, SpanFact> spans = new HashMap<>();
    /** Agent key → its parent agent's key, null for the session's own agents; in span order. */
    private final Map<String, String> parents = new LinkedHashMap<>();
    private final Map<String, Integer> depths = new HashMap<>();

    SpanAgents(List<SpanFact> ordered) {
        ordered.forEach(span -> spans.put(key(span), span));
        for (SpanFact span : ordered) {
            if (isAgent(span)) {
                parents.put(key(span), enclosing(span));
            }
        }
    }

    static boolean isAgent(SpanFact span) {
        return "invoke_agent".equals(span.text("gen_ai.operation.name"))
                || "AGENT".equals(span.text("openinference.span.kind"));
    }

    private static String key(SpanFact span) {
        return span.traceId() + "/" + span.spanId();
    }

    SpanFact span(String agent) {
        return spans.get(agent);
    }

    String parent(String agent) {
        return parents.get(agent);
    }

    /** The nearest agent above the span (not the span itself), or null; a cycle of parent ids ends the walk. */
    private String enclosing(SpanFact span) {
        String parentId = span.parentSpanId();
        for (int hops = 0; parentId != null && hops < spans.size(); hops++) {
            SpanFact parent = spans.get(span.traceId() + "/" + parentId);
            if (parent == null) {
                return null;
            }
            if (isAgent(parent)) {
                return key(parent);
            }
            parentId = parent.parentSpanId();
        }
        return null;
    }

    /** The sub-agent the span worked for, or null when it worked for one of the session's own agents (or none). */
    String group(SpanFact span) {
        String agent = enclosing(span);
        return agent == null || parents.get(agent) == null ? null : agent;
    }

    List<String> topLevel() {
        return parents.keySet().stream().filter(a -> parents.get(a) == null).toList();
    }

    /** The sub-agents, deepest first: each one's conversation is ready before its parent's takes its steps. */
    List<String> subAgentsDeepestFirst() {
        List<String> subAgents = new ArrayList<>(parents.keySet().stream().filter(a -> parents.get(a) != null)
                .toList());
        subAgents.sort(Comparator.comparingInt(this::depth).reversed());
        return subAgents;
    }

    /** The sub-agents run directly by {@code group} (null: by the session's own agents), in span order. */
    List<String> children(String group) {
        return parents.keySet().stream().filter(a -> {
            String parent = parents.get(a);
            return parent != null && (group == null ? parents.get(parent) == null : parent.equals(group));
        }).toList();
    }

    /** Every agent, each followed by the agents it ran, in span order. */
    List<String> preOrder() {
        List<String> order = new ArrayList<>();
        topLevel().forEach(agent -> visit(agent, order));
        return order;
    }

    private void visit(String agent, List<String> order) {
        order.add(agent);
        parents.keySet().stream().filter(a -> Objects.equals(parents.get(a), agent)).forEach(a -> visit(a, order));
    }

    private int depth(String agent) {
        Integer known = depths.get(agent);
        if (known != null) {
            return known;
        }
        int depth = 0;
        for (String at = parents.get(agent); at != null && depth <= parents.size(); at = parents.get(at)) {
            depth++;
        }
        depths.put(agent, depth);
        return depth;
    }
}
