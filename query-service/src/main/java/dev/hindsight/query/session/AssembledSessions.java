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
                                      event_id, input_tokens, output_tokens, latency_ms, model)
            SELECT tenant_id, session_id, message_index, role, content, occurred_at, thinking_steps::jsonb, event_id,
                   input_tokens, output_tokens, latency_ms, model
            FROM unnest($1::text[], $2::text[], $3::int[], $4::text[], $5::text[], $6::timestamptz[], $7::text[],
                        $8::uuid[], $9::bigint[], $10::bigint[], $11::bigint[], $12::text[])
                AS m(tenant_id, session_id, message_index, role, content, occurred_at, thinking_steps, event_id,
                     input_tokens, output_tokens, latency_ms, model)""";

    private static final String UPSERT_SESSIONS = """
            INSERT INTO {rm}.session (tenant_id, session_id, kind, started_at, model, attributes, labels,
                                      total_messages, last_event_at, listed_at)
            SELECT tenant_id, session_id, 'chat', started_at, model, attributes::jsonb, labels::jsonb, total_messages,
                   last_event_at, started_at
            FROM unnest($1::text[], $2::text[], $3::timestamptz[], $4::text[], $5::text[], $6::text[], $7::int[],
                        $8::timestamptz[])
                AS s(tenant_id, session_id, started_at, model, attributes, labels, total_messages, last_event_at)
            ON CONFLICT (tenant_id, session_id) DO UPDATE SET
                kind = 'chat', started_at = EXCLUDED.started_at, model = EXCLUDED.model,
                attributes = EXCLUDED.attributes, labels = EXCLUDED.labels,
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

    /** A session as assembled: its row and all its messages. */
    public record Session(Key key, OffsetDateTime startedAt, String model, String agent, Map<String, String> labels,
            OffsetDateTime lastEventAt, List<Message> messages) {
    }

    /** A message in its place; steps in order (their {@code step_order} is their place in the list). */
    public record Message(int index, String role, String content, OffsetDateTime occurredAt, List<Step> steps,
            Long inputTokens, Long outputTokens, Long latencyMillis, String model) {
    }

    /** A thinking step: {@code reasoning} or {@code tool}; tool arguments as JSON text. */
    public record Step(String type, String content, String toolName, String toolArguments, String toolResult,
            String toolError) {
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

        int size() {
            return ids.size();
        }

        void add(Session session) {
            tenants.add(session.key().tenant().value());
            ids.add(session.key().sessionId());
            started.add(session.startedAt());
            models.add(session.model());
            attributes.add(Json.withoutNulls(new JsonObject().put("source", SOURCE).put("agent", session.agent())
                    .put("model", session.model())).encode());
            labels.add(new JsonObject(new HashMap<>(session.labels())).encode());
            totals.add(session.messages().size());
            lastEvents.add(session.lastEventAt());
        }

        Tuple tuple() {
            return Tuple.from(Arrays.asList(tenants.toArray(new String[0]), ids.toArray(new String[0]),
                    started.toArray(new OffsetDateTime[0]), models.toArray(new String[0]),
                    attributes.toArray(new String[0]), labels.toArray(new String[0]), totals.toArray(new Integer[0]),
                    lastEvents.toArray(new OffsetDateTime[0])));
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

        int size() {
            return ids.size();
        }

        void add(Key session, Message message) {
            JsonArray thinking = new JsonArray();
            for (Step step : message.steps()) {
                thinking.add(Json.withoutNulls(new JsonObject()
                        .put("step_order", thinking.size())
                        .put("step_type", step.type())
                        .put("content", step.content())
                        .put("tool_name", step.toolName())
                        .put("tool_arguments", Json.value(step.toolArguments()))
                        .put("tool_result", step.toolResult())
                        .put("tool_error", step.toolError())));
            }
            tenants.add(session.tenant().value());
            sessions.add(session.sessionId());
            indexes.add(message.index());
            roles.add(message.role());
            contents.add(message.content());
            occurred.add(message.occurredAt());
            steps.add(thinking.encode());
            // A row, not an event: the id names the message's place, the same however often it is assembled.
            ids.add(UUID.nameUUIDFromBytes(("otlp-message\u001f" + session.tenant() + '\u001f' + session.sessionId()
                    + '\u001f' + message.index()).getBytes(StandardCharsets.UTF_8)));
            inputTokens.add(message.inputTokens());
            outputTokens.add(message.outputTokens());
            latencies.add(message.latencyMillis());
            models.add(message.model());
        }

        Tuple tuple() {
            return Tuple.from(Arrays.asList(tenants.toArray(new String[0]), sessions.toArray(new String[0]),
                    indexes.toArray(new Integer[0]), roles.toArray(new String[0]), contents.toArray(new String[0]),
                    occurred.toArray(new OffsetDateTime[0]), steps.toArray(new String[0]), ids.toArray(new UUID[0]),
                    inputTokens.toArray(new Long[0]), outputTokens.toArray(new Long[0]), latencies.toArray(new Long[0]),
                    models.toArray(new String[0])));
        }
    }
}
