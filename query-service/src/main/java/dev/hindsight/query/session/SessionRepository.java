package dev.hindsight.query.session;

import dev.hindsight.events.reasoning.LegacyToolInvocation;
import dev.hindsight.events.reasoning.MessageRecorded;
import dev.hindsight.events.reasoning.SessionCompleted;
import dev.hindsight.events.reasoning.SessionStarted;
import dev.hindsight.events.reasoning.ThinkingStep;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Reads and writes the session read model. Every write is idempotent on its natural key, so a redelivered event
 * changes nothing even before the event-id ledger is consulted.
 */
@ApplicationScoped
public class SessionRepository {

    private static final String UPSERT_STARTED = """
            INSERT INTO session (tenant_id, session_id, kind, started_at, job_id, trading_date, model, attributes,
                                 labels, last_event_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
            ON CONFLICT (tenant_id, session_id) DO UPDATE SET
                kind = EXCLUDED.kind, started_at = EXCLUDED.started_at, job_id = EXCLUDED.job_id,
                trading_date = EXCLUDED.trading_date, model = EXCLUDED.model, attributes = EXCLUDED.attributes,
                labels = EXCLUDED.labels, last_event_at = GREATEST(session.last_event_at, EXCLUDED.last_event_at)""";

    // One statement: insert the message unless its index is taken, and count it on the session only if inserted.
    private static final String INSERT_MESSAGE = """
            WITH inserted AS (
                INSERT INTO message (tenant_id, session_id, message_index, role, content, tool_name, tool_input,
                                     occurred_at, thinking_steps, legacy_reasoning, legacy_tools, event_id)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
                ON CONFLICT (tenant_id, session_id, message_index) DO NOTHING
                RETURNING 1)
            INSERT INTO session (tenant_id, session_id, total_messages, last_event_at)
            SELECT $1, $2, count(*), $13 FROM inserted
            ON CONFLICT (tenant_id, session_id) DO UPDATE SET
                total_messages = session.total_messages + EXCLUDED.total_messages,
                last_event_at = GREATEST(session.last_event_at, EXCLUDED.last_event_at)""";

    private static final String UPSERT_COMPLETED = """
            INSERT INTO session (tenant_id, session_id, completed_at, outcome, last_event_at)
            VALUES ($1, $2, $3, $4, $5)
            ON CONFLICT (tenant_id, session_id) DO UPDATE SET
                completed_at = EXCLUDED.completed_at, outcome = EXCLUDED.outcome,
                last_event_at = GREATEST(session.last_event_at, EXCLUDED.last_event_at)""";

    private static final String SELECT_SESSION = """
            SELECT session_id, kind, started_at, completed_at, outcome, job_id, trading_date, model, attributes, labels,
                   total_messages
            FROM session WHERE tenant_id = $1 AND session_id = $2""";

    private static final String SELECT_MESSAGES = """
            SELECT message_index, role, content, tool_name, tool_input, occurred_at, thinking_steps, legacy_reasoning,
                   legacy_tools
            FROM message WHERE tenant_id = $1 AND session_id = $2 ORDER BY message_index""";

    private final Pool pool;

    public SessionRepository(Pool pool) {
        this.pool = pool;
    }

    Uni<Void> sessionStarted(SqlClient tx, String tenant, String sessionId, SessionStarted started, Instant at) {
        JsonObject attributes = new JsonObject();
        if (started.getChat() != null) {
            attributes.put("agent", started.getChat().getAgent())
                    .put("model", started.getChat().getModel())
                    .put("title", started.getChat().getTitle());
        }
        if (started.getDebug() != null) {
            attributes.put("developer_id", started.getDebug().getDeveloperId())
                    .put("task_id", started.getDebug().getTaskId())
                    .put("task_description", started.getDebug().getTaskDescription())
                    .put("repo_url", started.getDebug().getRepoUrl())
                    .put("repo_commit_hash", started.getDebug().getRepoCommitHash());
        }
        var trading = started.getTrading();
        // Arrays.asList, not List.of: absent attributes are SQL NULLs.
        return tx.preparedQuery(UPSERT_STARTED).execute(Tuple.from(Arrays.asList(
                tenant, sessionId, started.getKind().name().toLowerCase(Locale.ROOT), utc(started.getStartedAt()),
                trading == null ? null : trading.getJobId(),
                trading == null ? null : trading.getDate(),
                trading == null ? null : trading.getModel(),
                withoutNulls(attributes), new JsonObject(new java.util.HashMap<>(started.getLabels())), utc(at))))
                .replaceWithVoid();
    }

    Uni<Void> messageRecorded(SqlClient tx, String tenant, String sessionId, MessageRecorded message,
            String eventId, Instant at) {
        JsonArray steps = new JsonArray();
        for (ThinkingStep step : message.getThinkingSteps()) {
            steps.add(withoutNulls(new JsonObject()
                    .put("step_order", step.getStepOrder())
                    .put("step_type", step.getStepType().name().toLowerCase(Locale.ROOT))
                    .put("content", step.getContent())
                    .put("tool_name", step.getToolName())
                    .put("tool_arguments", jsonValue(step.getToolArguments()))
                    .put("tool_result", step.getToolResult())
                    .put("tool_error", step.getToolError())));
        }
        JsonArray legacyTools = null;
        if (message.getLegacyTools() != null) {
            legacyTools = new JsonArray();
            for (LegacyToolInvocation tool : message.getLegacyTools()) {
                legacyTools.add(withoutNulls(new JsonObject()
                        .put("tool_name", tool.getToolName())
                        .put("tool_arguments", jsonValue(tool.getToolArguments()))
                        .put("tool_result", tool.getToolResult())
                        .put("tool_error", tool.getToolError())));
            }
        }
        List<Object> values = new ArrayList<>(13);
        values.add(tenant);
        values.add(sessionId);
        values.add(message.getMessageIndex());
        values.add(message.getRole().name().toLowerCase(Locale.ROOT));
        values.add(message.getContent());
        values.add(message.getToolName());
        values.add(message.getToolInput());
        values.add(utc(message.getTimestamp()));
        values.add(steps);
        values.add(message.getLegacyReasoning());
        values.add(legacyTools);
        values.add(java.util.UUID.fromString(eventId));
        values.add(utc(at));
        return tx.preparedQuery(INSERT_MESSAGE).execute(Tuple.from(values)).replaceWithVoid();
    }

    Uni<Void> sessionCompleted(SqlClient tx, String tenant, String sessionId, SessionCompleted completed, Instant at) {
        return tx.preparedQuery(UPSERT_COMPLETED).execute(Tuple.of(tenant, sessionId, utc(completed.getCompletedAt()),
                completed.getOutcome().name().toLowerCase(Locale.ROOT), utc(at))).replaceWithVoid();
    }

    /** The session with its messages in order: two queries whatever the number of messages. */
    public Uni<Optional<SessionView>> find(String tenant, String sessionId) {
        return pool.preparedQuery(SELECT_SESSION).execute(Tuple.of(tenant, sessionId)).flatMap(rows -> {
            if (rows.size() == 0) {
                return Uni.createFrom().item(Optional.<SessionView>empty());
            }
            Row session = rows.iterator().next();
            return pool.preparedQuery(SELECT_MESSAGES).execute(Tuple.of(tenant, sessionId)).map(messageRows -> {
                List<SessionView.MessageView> messages = new ArrayList<>(messageRows.size());
                for (Row row : messageRows) {
                    messages.add(SessionView.MessageView.from(row));
                }
                return Optional.of(SessionView.from(session, messages));
            });
        });
    }

    private static OffsetDateTime utc(Instant instant) {
        return instant == null ? null : instant.atOffset(ZoneOffset.UTC);
    }

    private static JsonObject withoutNulls(JsonObject object) {
        object.getMap().values().removeIf(java.util.Objects::isNull);
        return object;
    }

    /** Tool arguments arrive as JSON text; shown as JSON when they are an object or array, as text otherwise. */
    private static Object jsonValue(String text) {
        if (text == null) {
            return null;
        }
        String trimmed = text.trim();
        if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
            try {
                return Json.decodeValue(trimmed);
            } catch (DecodeException notJson) {
                return text;
            }
        }
        return text;
    }
}
