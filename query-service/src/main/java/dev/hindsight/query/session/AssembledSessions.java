package dev.hindsight.query.session;

import dev.hindsight.platform.tenant.TenantId;
import dev.hindsight.query.readmodel.Json;
import dev.hindsight.query.readmodel.ReadModel;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Sessions assembled whole from another source than the session events (OpenTelemetry spans, ADR 0012), written as a
 * function of that source: the session's messages are replaced and its row rewritten; a session whose source is gone
 * is deleted. The session feature owns the session and message tables, so the statements that write them live here.
 */
public final class AssembledSessions {

    /** Written to an assembled session's attributes; what tells it from one the event API made. */
    public static final String SOURCE = "opentelemetry";

    private static final String DELETE_MESSAGES = """
            DELETE FROM {rm}.message m USING unnest($1::text[], $2::text[]) AS u(tenant_id, session_id)
            WHERE m.tenant_id = u.tenant_id AND m.session_id = u.session_id""";

    private static final String INSERT_MESSAGES = """
            INSERT INTO {rm}.message (tenant_id, session_id, message_index, role, content, occurred_at, thinking_steps,
                                      event_id, input_tokens, output_tokens, latency_ms, model,
                                      cache_read_input_tokens, cache_write_input_tokens, reasoning_output_tokens,
                                      time_to_first_token_ms, system_instructions, tool_definitions)
            SELECT tenant_id, session_id, message_index, role, content, occurred_at, thinking_steps::jsonb, event_id,
                   input_tokens, output_tokens, latency_ms, model, cache_read_input_tokens, cache_write_input_tokens,
                   reasoning_output_tokens, time_to_first_token_ms, system_instructions, tool_definitions::jsonb
            FROM unnest($1::text[], $2::text[], $3::int[], $4::text[], $5::text[], $6::timestamptz[], $7::text[],
                        $8::uuid[], $9::bigint[], $10::bigint[], $11::bigint[], $12::text[], $13::bigint[],
                        $14::bigint[], $15::bigint[], $16::bigint[], $17::text[], $18::text[])
                AS m(tenant_id, session_id, message_index, role, content, occurred_at, thinking_steps, event_id,
                     input_tokens, output_tokens, latency_ms, model, cache_read_input_tokens,
                     cache_write_input_tokens, reasoning_output_tokens, time_to_first_token_ms, system_instructions,
                     tool_definitions)""";

    private static final String UPSERT_SESSIONS = """
            INSERT INTO {rm}.session (tenant_id, session_id, kind, started_at, model, attributes, labels,
                                      total_messages, last_event_at, listed_at, agents)
            SELECT tenant_id, session_id, 'chat', started_at, model, attributes::jsonb, labels::jsonb, total_messages,
                   last_event_at, started_at, agents::jsonb
            FROM unnest($1::text[], $2::text[], $3::timestamptz[], $4::text[], $5::text[], $6::text[], $7::int[],
                        $8::timestamptz[], $9::text[])
                AS s(tenant_id, session_id, started_at, model, attributes, labels, total_messages, last_event_at,
                     agents)
            ON CONFLICT (tenant_id, session_id) DO UPDATE SET
                kind = 'chat', started_at = EXCLUDED.started_at, model = EXCLUDED.model,
                attributes = EXCLUDED.attributes, labels = EXCLUDED.labels, agents = EXCLUDED.agents,
                total_messages = EXCLUDED.total_messages, listed_at = EXCLUDED.listed_at,
                last_event_at = GREATEST({rm}.session.last_event_at, EXCLUDED.last_event_at)""";

    /** A session whose source is gone (its traces moved to another session: a conversation id seen late). */
    private static final String DELETE_SESSIONS = """
            DELETE FROM {rm}.session s USING unnest($1::text[], $2::text[]) AS u(tenant_id, session_id)
            WHERE s.tenant_id = u.tenant_id AND s.session_id = u.session_id
              AND s.attributes ->> 'source' = '""" + SOURCE + "'";

    /** A tenant's session. */
    public record Key(TenantId tenant, String sessionId) {
    }

    /**
     * A session as assembled: its row and all its messages; {@code agents} the tree of agents when sub-agents ran
     * (else empty), parents before their children; {@code subject} the person it is about, when a span named one.
     */
    public record Session(Key key, OffsetDateTime startedAt, String model, String agent, String provider,
            Map<String, String> labels, OffsetDateTime lastEventAt, List<Message> messages, List<Agent> agents,
            String subject) {
    }

    /**
     * A message in its place; steps in order (their {@code step_order} is their place in the list); what its model
     * calls cost (null for a user's message); the system instructions and tool definitions (a JSON array) they had.
     */
    public record Message(int index, String role, String content, OffsetDateTime occurredAt, List<Step> steps,
            Usage usage, String systemInstructions, String toolDefinitions) {
    }

    /** Tokens, latency and time to first token of the model calls behind a message. */
    public record Usage(Long inputTokens, Long outputTokens, Long cacheReadInputTokens, Long cacheWriteInputTokens,
            Long reasoningOutputTokens, Long latencyMillis, Long timeToFirstTokenMillis, String model) {
    }

    /**
     * A thinking step: {@code reasoning} or {@code tool}; tool arguments as JSON text; the sub-agent that took it
     * (null for the session's own agent); the memory operation a tool step is.
     */
    public record Step(String type, String content, String toolName, String toolArguments, String toolResult,
            String toolError, String agentId, String memoryOperation) {
    }

    /** One agent run of the tree; a sub-agent's own messages (the session's own agents have none here). */
    public record Agent(String agentId, String parentAgentId, String name, String description,
            OffsetDateTime startedAt, OffsetDateTime endedAt, List<Message> messages) {
    }

    private AssembledSessions() {
    }

    /**
     * Replaces what {@code model} holds of each assembled session with {@code sessions}, and deletes the sessions in
     * {@code gone}, on the projection's transaction {@code tx}.
     */
    public static Uni<Void> replace(SqlClient tx, ReadModel model, List<Session> sessions, List<Key> gone) {
        List<Key> touched = new ArrayList<>(gone);
        SessionColumns written = new SessionColumns();
        MessageColumns messages = new MessageColumns();
        for (Session session : sessions) {
            touched.add(session.key());
            written.add(session);
            session.messages().forEach(m -> messages.add(session.key(), m));
        }
        if (touched.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        Uni<Void> chain = tx.preparedQuery(model.sql(DELETE_MESSAGES)).execute(keys(touched)).replaceWithVoid();
        if (messages.size() > 0) {
            chain = chain.chain(() -> tx.preparedQuery(model.sql(INSERT_MESSAGES)).execute(messages.tuple())
                    .replaceWithVoid());
        }
        if (written.size() > 0) {
            chain = chain.chain(() -> tx.preparedQuery(model.sql(UPSERT_SESSIONS)).execute(written.tuple())
                    .replaceWithVoid());
        }
        if (!gone.isEmpty()) {
            chain = chain.chain(() -> tx.preparedQuery(model.sql(DELETE_SESSIONS)).execute(keys(gone))
                    .replaceWithVoid());
        }
        return chain;
    }

    private static Tuple keys(List<Key> keys) {
        return Tuple.of(keys.stream().map(key -> key.tenant().value()).toArray(String[]::new),
                keys.stream().map(Key::sessionId).toArray(String[]::new));
    }

    /** Steps as every session's are stored: {@code step_order} their place, absent fields left out. */
    private static JsonArray steps(List<Step> steps) {
        JsonArray thinking = new JsonArray();
        for (Step step : steps) {
            thinking.add(Json.withoutNulls(new JsonObject()
                    .put("step_order", thinking.size())
                    .put("step_type", step.type())
                    .put("content", step.content())
                    .put("tool_name", step.toolName())
                    .put("tool_arguments", Json.value(step.toolArguments()))
                    .put("tool_result", step.toolResult())
                    .put("tool_error", step.toolError())
                    .put("agent_id", step.agentId())
                    .put("memory_operation", step.memoryOperation())));
        }
        return thinking;
    }

    /** The agents' tree as the session row keeps it and the API serves it ({@code SessionView.Agent}). */
    private static JsonArray agentTree(List<Agent> agents) {
        JsonArray tree = new JsonArray();
        for (Agent agent : agents) {
            JsonArray messages = new JsonArray();
            for (Message message : agent.messages()) {
                Usage usage = message.usage();
                messages.add(Json.withoutNulls(new JsonObject()
                        .put("message_index", message.index())
                        .put("role", message.role())
                        .put("content", message.content())
                        .put("timestamp", time(message.occurredAt()))
                        .put("thinking_steps", steps(message.steps()))
                        .put("usage", usage == null ? null : Json.withoutNulls(new JsonObject()
                                .put("input_tokens", usage.inputTokens())
                                .put("output_tokens", usage.outputTokens())
                                .put("cache_read_input_tokens", usage.cacheReadInputTokens())
                                .put("cache_write_input_tokens", usage.cacheWriteInputTokens())
                                .put("reasoning_output_tokens", usage.reasoningOutputTokens())
                                .put("latency_ms", usage.latencyMillis())
                                .put("time_to_first_token_ms", usage.timeToFirstTokenMillis())
                                .put("model", usage.model())))));
            }
            tree.add(Json.withoutNulls(new JsonObject()
                    .put("agent_id", agent.agentId())
                    .put("parent_agent_id", agent.parentAgentId())
                    .put("name", agent.name())
                    .put("description", agent.description())
                    .put("started_at", time(agent.startedAt()))
                    .put("ended_at", time(agent.endedAt()))
                    .put("messages", messages)));
        }
        return tree;
    }

    private static String time(OffsetDateTime at) {
        return at == null ? null : DateTimeFormatter.ISO_OFFSET_DATE_TIME.format(at);
    }

    /** The assembled sessions' rows, for {@link #UPSERT_SESSIONS}. */
    private static final class SessionColumns {
        private final List<String> tenants = new ArrayList<>();
        private final List<String> ids = new ArrayList<>();
        private final List<OffsetDateTime> started = new ArrayList<>();
        private final List<String> models = new ArrayList<>();
        private final List<String> attributes = new ArrayList<>();
        private final List<String> labels = new ArrayList<>();
        private final List<Integer> totals = new ArrayList<>();
        private final List<OffsetDateTime> lastEvents = new ArrayList<>();
        private final List<String> agents = new ArrayList<>();

        int size() {
            return ids.size();
        }

        void add(Session session) {
            tenants.add(session.key().tenant().value());
            ids.add(session.key().sessionId());
            started.add(session.startedAt());
            models.add(session.model());
            attributes.add(Json.withoutNulls(new JsonObject().put("source", SOURCE).put("agent", session.agent())
                    .put("model", session.model()).put("provider", session.provider())
                    .put("subject", session.subject())).encode());
            labels.add(new JsonObject(new HashMap<>(session.labels())).encode());
            totals.add(session.messages().size());
            lastEvents.add(session.lastEventAt());
            agents.add(session.agents().isEmpty() ? null : agentTree(session.agents()).encode());
        }

        Tuple tuple() {
            return Tuple.from(Arrays.asList(tenants.toArray(new String[0]), ids.toArray(new String[0]),
                    started.toArray(new OffsetDateTime[0]), models.toArray(new String[0]),
                    attributes.toArray(new String[0]), labels.toArray(new String[0]), totals.toArray(new Integer[0]),
                    lastEvents.toArray(new OffsetDateTime[0]), agents.toArray(new String[0])));
        }
    }

    /** The assembled sessions' messages, with their steps as every session's are stored, for {@link #INSERT_MESSAGES}. */
    private static final class MessageColumns {
        private final List<String> tenants = new ArrayList<>();
        private final List<String> sessions = new ArrayList<>();
        private final List<Integer> indexes = new ArrayList<>();
        private final List<String> roles = new ArrayList<>();
        private final List<String> contents = new ArrayList<>();
        private final List<OffsetDateTime> occurred = new ArrayList<>();
        private final List<String> steps = new ArrayList<>();
        private final List<UUID> ids = new ArrayList<>();
        private final List<Long> inputTokens = new ArrayList<>();
        private final List<Long> outputTokens = new ArrayList<>();
        private final List<Long> latencies = new ArrayList<>();
        private final List<String> models = new ArrayList<>();
        private final List<Long> cacheReads = new ArrayList<>();
        private final List<Long> cacheWrites = new ArrayList<>();
        private final List<Long> reasoning = new ArrayList<>();
        private final List<Long> firstTokens = new ArrayList<>();
        private final List<String> instructions = new ArrayList<>();
        private final List<String> tools = new ArrayList<>();

        int size() {
            return ids.size();
        }

        void add(Key session, Message message) {
            tenants.add(session.tenant().value());
            sessions.add(session.sessionId());
            indexes.add(message.index());
            roles.add(message.role());
            contents.add(message.content());
            occurred.add(message.occurredAt());
            steps.add(steps(message.steps()).encode());
            // A row, not an event: the id names the message's place, the same however often it is assembled.
            ids.add(UUID.nameUUIDFromBytes(("otlp-message\u001f" + session.tenant() + '\u001f' + session.sessionId()
                    + '\u001f' + message.index()).getBytes(StandardCharsets.UTF_8)));
            Usage usage = message.usage() == null ? new Usage(null, null, null, null, null, null, null, null)
                    : message.usage();
            inputTokens.add(usage.inputTokens());
            outputTokens.add(usage.outputTokens());
            latencies.add(usage.latencyMillis());
            models.add(usage.model());
            cacheReads.add(usage.cacheReadInputTokens());
            cacheWrites.add(usage.cacheWriteInputTokens());
            reasoning.add(usage.reasoningOutputTokens());
            firstTokens.add(usage.timeToFirstTokenMillis());
            instructions.add(message.systemInstructions());
            tools.add(message.toolDefinitions());
        }

        Tuple tuple() {
            return Tuple.from(Arrays.asList(tenants.toArray(new String[0]), sessions.toArray(new String[0]),
                    indexes.toArray(new Integer[0]), roles.toArray(new String[0]), contents.toArray(new String[0]),
                    occurred.toArray(new OffsetDateTime[0]), steps.toArray(new String[0]), ids.toArray(new UUID[0]),
                    inputTokens.toArray(new Long[0]), outputTokens.toArray(new Long[0]), latencies.toArray(new Long[0]),
                    models.toArray(new String[0]), cacheReads.toArray(new Long[0]), cacheWrites.toArray(new Long[0]),
                    reasoning.toArray(new Long[0]), firstTokens.toArray(new Long[0]),
                    instructions.toArray(new String[0]), tools.toArray(new String[0])));
        }
    }
}
