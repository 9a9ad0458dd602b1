package dev.hindsight.query.session;

import dev.hindsight.events.EventHeader;
import dev.hindsight.events.reasoning.ActivityRecorded;
import dev.hindsight.events.reasoning.LegacyToolInvocation;
import dev.hindsight.events.reasoning.MessageRecorded;
import dev.hindsight.events.reasoning.PositionRecorded;
import dev.hindsight.events.reasoning.ReasoningEvent;
import dev.hindsight.events.reasoning.SessionCompleted;
import dev.hindsight.events.reasoning.SessionStarted;
import dev.hindsight.events.reasoning.ThinkingStep;
import dev.hindsight.platform.events.TraceActivity;
import dev.hindsight.platform.kafka.Decoded;
import dev.hindsight.platform.tenant.TenantId;
import dev.hindsight.query.readmodel.Change;
import dev.hindsight.query.readmodel.Json;
import dev.hindsight.query.readmodel.ReadModel;
import dev.hindsight.query.readmodel.ReadModelProjection;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Singleton;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * Projects {@code hindsight.reasoning.v1} (sessions, messages, positions, trace activities, completions) into the
 * session read models. A polled batch is one transaction: all its messages are one set-based statement, every
 * other kind of change one pipelined batch execution, in the order started → messages → positions → activities →
 * completed. Every statement is idempotent on its natural key and commutes with the others, so their order within a
 * batch does not change the result.
 */
@Singleton
class ReasoningProjection extends ReadModelProjection<ReasoningEvent> {

    private static final String UPSERT_STARTED = """
            INSERT INTO {rm}.session (tenant_id, session_id, kind, started_at, job_id, trading_date, model, attributes,
                                      labels, last_event_at, listed_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $4)
            ON CONFLICT (tenant_id, session_id) DO UPDATE SET
                kind = EXCLUDED.kind, started_at = EXCLUDED.started_at, job_id = EXCLUDED.job_id,
                trading_date = EXCLUDED.trading_date, model = EXCLUDED.model, attributes = EXCLUDED.attributes,
                labels = EXCLUDED.labels, listed_at = EXCLUDED.started_at,
                last_event_at = GREATEST({rm}.session.last_event_at, EXCLUDED.last_event_at)""";

    // One statement for all of a batch's messages: insert each unless its index is taken (the first event wins, as
    // (session, message_index) is unique, design.md § Messages; within the batch, in topic order), then count the
    // inserted ones on their sessions, one session row update per session instead of one per message.
    private static final String INSERT_MESSAGES = """
            WITH input AS (
                SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::text[], $5::text[], $6::text[], $7::text[],
                                     $8::timestamptz[], $9::text[], $10::text[], $11::text[], $12::uuid[],
                                     $13::timestamptz[])
                    WITH ORDINALITY AS i(tenant_id, session_id, message_index, role, content, tool_name, tool_input,
                                         occurred_at, thinking_steps, legacy_reasoning, legacy_tools, event_id,
                                         recorded_at, n)),
            inserted AS (
                INSERT INTO {rm}.message (tenant_id, session_id, message_index, role, content, tool_name, tool_input,
                                          occurred_at, thinking_steps, legacy_reasoning, legacy_tools, event_id)
                SELECT tenant_id, session_id, message_index, role, content, tool_name, tool_input, occurred_at,
                       thinking_steps::jsonb, legacy_reasoning, legacy_tools::jsonb, event_id
                FROM input ORDER BY n
                ON CONFLICT (tenant_id, session_id, message_index) DO NOTHING
                RETURNING tenant_id, session_id),
            counted AS (SELECT tenant_id, session_id, count(*) AS inserted FROM inserted GROUP BY 1, 2),
            touched AS (SELECT tenant_id, session_id, min(recorded_at) AS first_at, max(recorded_at) AS last_at
                        FROM input GROUP BY 1, 2)
            INSERT INTO {rm}.session (tenant_id, session_id, total_messages, last_event_at, listed_at)
            SELECT t.tenant_id, t.session_id, COALESCE(c.inserted, 0), t.last_at, t.first_at
            FROM touched t LEFT JOIN counted c USING (tenant_id, session_id)
            ON CONFLICT (tenant_id, session_id) DO UPDATE SET
                total_messages = {rm}.session.total_messages + EXCLUDED.total_messages,
                last_event_at = GREATEST({rm}.session.last_event_at, EXCLUDED.last_event_at)""";

    // A position or an activity may be all that was acknowledged of a session (its start and messages refused): the
    // session row is made with it, as a message makes it, so that GET /v1/sessions/{id} shows what was acknowledged.
    private static final String TOUCH_SESSION = """
            INSERT INTO {rm}.session (tenant_id, session_id, last_event_at, listed_at) VALUES ($1, $2, $%1$d, $%1$d)
            ON CONFLICT (tenant_id, session_id) DO UPDATE SET
                last_event_at = GREATEST({rm}.session.last_event_at, EXCLUDED.last_event_at)""";

    private static final String INSERT_POSITION = """
            WITH inserted AS (
                INSERT INTO {rm}.position (tenant_id, session_id, action_id, action_type, symbol, amount, price,
                                           cash_after, portfolio_value, daily_profit, daily_return_pct, event_id)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
                ON CONFLICT (tenant_id, session_id, action_id) DO NOTHING)
            """ + TOUCH_SESSION.formatted(13);

    private static final String INSERT_ACTIVITY = """
            WITH inserted AS (
                INSERT INTO {rm}.activity (tenant_id, session_id, activity_id, sequence, occurred_at, event_type,
                                           payload, source_partition, source_offset, event_id)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
                ON CONFLICT (tenant_id, session_id, activity_id) DO NOTHING)
            """ + TOUCH_SESSION.formatted(11);

    private static final String UPSERT_COMPLETED = """
            INSERT INTO {rm}.session (tenant_id, session_id, completed_at, outcome, final_code_diff, summary_hint,
                                      judge_requested, last_event_at, listed_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)
            ON CONFLICT (tenant_id, session_id) DO UPDATE SET
                completed_at = EXCLUDED.completed_at, outcome = EXCLUDED.outcome,
                final_code_diff = EXCLUDED.final_code_diff, summary_hint = EXCLUDED.summary_hint,
                judge_requested = EXCLUDED.judge_requested,
                last_event_at = GREATEST({rm}.session.last_event_at, EXCLUDED.last_event_at)""";

    public ReasoningProjection(Writes writes) {
        super(writes, "reasoning", "query.reasoning", ReasoningEvent.class, ReasoningEvent::getHeader);
    }

    @Incoming("reasoning")
    public Uni<Void> consume(ConsumerRecords<String, Decoded> records) {
        return live(records);
    }

    @Override
    protected List<Change> changes(List<ReasoningEvent> envelopes) {
        Map<String, Change> sessions = new LinkedHashMap<>();
        for (ReasoningEvent event : envelopes) {
            TenantId tenant = TenantId.of(event.getHeader().getTenantId());
            String key = tenant.value() + '\u001f' + event.getSessionId();
            // A trading session's start names its model-day, which cached GET /reasoning answers are filtered by.
            Change.TradingDay day = event.getPayload() instanceof SessionStarted started && started.getTrading() != null
                    ? new Change.TradingDay(started.getTrading().getJobId(), started.getTrading().getDate(),
                            started.getTrading().getModel())
                    : null;
            Change known = sessions.get(key);
            sessions.put(key, new Change(tenant, "session", event.getSessionId(), event.getHeader().getRecordedAt(),
                    day != null || known == null ? day : known.trading()));
        }
        return new ArrayList<>(sessions.values());
    }

    @Override
    protected Uni<Void> write(SqlClient tx, ReadModel model, List<Projected<ReasoningEvent>> events) {
        Map<String, List<Tuple>> statements = new HashMap<>();
        MessageColumns messages = new MessageColumns(events.size());
        for (Projected<ReasoningEvent> projected : events) {
            ReasoningEvent event = projected.envelope();
            TenantId tenant = TenantId.of(event.getHeader().getTenantId());
            String sessionId = event.getSessionId();
            Instant at = event.getHeader().getRecordedAt();
            Object payload = event.getPayload();
            if (payload instanceof SessionStarted started) {
                add(statements, UPSERT_STARTED, started(tenant, sessionId, started, at));
            } else if (payload instanceof MessageRecorded message) {
                messages.add(tenant, sessionId, message, event.getHeader(), at);
            } else if (payload instanceof PositionRecorded position) {
                add(statements, INSERT_POSITION, position(tenant, sessionId, position, event.getHeader(), at));
            } else if (payload instanceof ActivityRecorded activity) {
                add(statements, INSERT_ACTIVITY, activity(tenant, sessionId, activity, projected, event.getHeader(),
                        at));
            } else if (payload instanceof SessionCompleted completed) {
                add(statements, UPSERT_COMPLETED, completed(tenant, sessionId, completed, at));
            } else {
                throw new IllegalArgumentException("unknown reasoning payload " + payload.getClass().getName());
            }
        }
        Uni<Void> chain = batch(tx, model, statements, UPSERT_STARTED);
        if (messages.size() > 0) {
            chain = chain.chain(() -> tx.preparedQuery(model.sql(INSERT_MESSAGES)).execute(messages.tuple())
                    .replaceWithVoid());
        }
        return chain.chain(() -> batch(tx, model, statements, INSERT_POSITION))
                .chain(() -> batch(tx, model, statements, INSERT_ACTIVITY))
                .chain(() -> batch(tx, model, statements, UPSERT_COMPLETED));
    }

    private static Uni<Void> batch(SqlClient tx, ReadModel model, Map<String, List<Tuple>> statements,
            String statement) {
        List<Tuple> rows = statements.get(statement);
        return rows == null ? Uni.createFrom().voidItem()
                : tx.preparedQuery(model.sql(statement)).executeBatch(rows).replaceWithVoid();
    }

    private static void add(Map<String, List<Tuple>> statements, String statement, Tuple tuple) {
        statements.computeIfAbsent(statement, s -> new ArrayList<>()).add(tuple);
    }

    private static Tuple started(TenantId tenant, String sessionId, SessionStarted started, Instant at) {
        JsonObject attributes = new JsonObject();
        String model = null;
        if (started.getChat() != null) {
            attributes.put("agent", started.getChat().getAgent())
                    .put("model", started.getChat().getModel())
                    .put("title", started.getChat().getTitle());
            model = started.getChat().getModel();
        }
        if (started.getDebug() != null) {
            attributes.put("developer_id", started.getDebug().getDeveloperId())
                    .put("task_id", started.getDebug().getTaskId())
                    .put("task_description", started.getDebug().getTaskDescription())
                    .put("repo_url", started.getDebug().getRepoUrl())
                    .put("repo_commit_hash", started.getDebug().getRepoCommitHash());
        }
        var trading = started.getTrading();
        if (trading != null) {
            model = trading.getModel();
        }
        // The person the session is about (ADR 0027): personal, kept for the console and for erasing that person.
        attributes.put("subject", started.getSubject());
        // Arrays.asList, not List.of: absent attributes are SQL NULLs.
        return Tuple.from(Arrays.asList(tenant.value(), sessionId, started.getKind().name().toLowerCase(Locale.ROOT),
                Json.utc(started.getStartedAt()), trading == null ? null : trading.getJobId(),
                trading == null ? null : trading.getDate(), model, Json.withoutNulls(attributes),
                new JsonObject(new HashMap<>(started.getLabels())), Json.utc(at)));
    }

    /** A batch's messages as one array per column, for {@link #INSERT_MESSAGES}. */
    private static final class MessageColumns {
        private final List<String> tenants;
        private final List<String> sessions;
        private final List<Integer> indexes;
        private final List<String> roles;
        private final List<String> contents;
        private final List<String> toolNames;
        private final List<String> toolInputs;
        private final List<OffsetDateTime> occurred;
        private final List<String> steps;
        private final List<String> reasonings;
        private final List<String> legacyTools;
        private final List<UUID> eventIds;
        private final List<OffsetDateTime> recorded;

        MessageColumns(int capacity) {
            tenants = new ArrayList<>(capacity);
            sessions = new ArrayList<>(capacity);
            indexes = new ArrayList<>(capacity);
            roles = new ArrayList<>(capacity);
            contents = new ArrayList<>(capacity);
            toolNames = new ArrayList<>(capacity);
            toolInputs = new ArrayList<>(capacity);
            occurred = new ArrayList<>(capacity);
            steps = new ArrayList<>(capacity);
            reasonings = new ArrayList<>(capacity);
            legacyTools = new ArrayList<>(capacity);
            eventIds = new ArrayList<>(capacity);
            recorded = new ArrayList<>(capacity);
        }

        int size() {
            return tenants.size();
        }

        void add(TenantId tenant, String sessionId, MessageRecorded message, EventHeader header, Instant at) {
            JsonArray thinking = new JsonArray();
            for (ThinkingStep step : message.getThinkingSteps()) {
                thinking.add(Json.withoutNulls(new JsonObject()
                        .put("step_order", step.getStepOrder())
                        .put("step_type", step.getStepType().name().toLowerCase(Locale.ROOT))
                        .put("content", step.getContent())
                        .put("tool_name", step.getToolName())
                        .put("tool_arguments", Json.value(step.getToolArguments()))
                        .put("tool_result", step.getToolResult())
                        .put("tool_error", step.getToolError())));
            }
            JsonArray tools = null;
            if (message.getLegacyTools() != null) {
                tools = new JsonArray();
                for (LegacyToolInvocation tool : message.getLegacyTools()) {
                    tools.add(Json.withoutNulls(new JsonObject()
                            .put("tool_name", tool.getToolName())
                            .put("tool_arguments", Json.value(tool.getToolArguments()))
                            .put("tool_result", tool.getToolResult())
                            .put("tool_error", tool.getToolError())));
                }
            }
            tenants.add(tenant.value());
            sessions.add(sessionId);
            indexes.add(message.getMessageIndex());
            roles.add(message.getRole().name().toLowerCase(Locale.ROOT));
            contents.add(message.getContent());
            toolNames.add(message.getToolName());
            toolInputs.add(message.getToolInput());
            occurred.add(Json.utc(message.getTimestamp()));
            steps.add(thinking.encode());
            reasonings.add(message.getLegacyReasoning());
            legacyTools.add(tools == null ? null : tools.encode());
            eventIds.add(header.getEventId());
            recorded.add(Json.utc(at));
        }

        Tuple tuple() {
            return Tuple.from(Arrays.asList(tenants.toArray(new String[0]), sessions.toArray(new String[0]),
                    indexes.toArray(new Integer[0]), roles.toArray(new String[0]), contents.toArray(new String[0]),
                    toolNames.toArray(new String[0]), toolInputs.toArray(new String[0]),
                    occurred.toArray(new OffsetDateTime[0]), steps.toArray(new String[0]),
                    reasonings.toArray(new String[0]), legacyTools.toArray(new String[0]),
                    eventIds.toArray(new UUID[0]), recorded.toArray(new OffsetDateTime[0])));
        }
    }

    private static Tuple position(TenantId tenant, String sessionId, PositionRecorded position, EventHeader header,
            Instant at) {
        return Tuple.from(Arrays.asList(tenant.value(), sessionId, position.getActionId(), position.getActionType(),
                position.getSymbol(), position.getAmount(), position.getPrice(), position.getCashAfter(),
                position.getPortfolioValue(), position.getDailyProfit(), position.getDailyReturnPct(),
                header.getEventId(), Json.utc(at)));
    }

    private static Tuple activity(TenantId tenant, String sessionId, ActivityRecorded activity,
            Projected<ReasoningEvent> projected, EventHeader header, Instant at) {
        TraceActivity body = TraceActivity.of(activity);
        JsonObject payload = switch (body.type()) {
            case TraceActivity.THOUGHT_LOG -> new JsonObject().put("thought_text", body.thoughtText());
            case TraceActivity.FILE_EDIT -> Json.withoutNulls(new JsonObject().put("file_path", body.filePath())
                    .put("content_diff", body.contentDiff()));
            default -> Json.withoutNulls(new JsonObject().put("command_text", body.commandText())
                    .put("working_directory", body.workingDirectory())
                    .put("exit_code", body.exitCode())
                    .put("stdout", body.stdout())
                    .put("stderr", body.stderr()));
        };
        return Tuple.from(Arrays.asList(tenant.value(), sessionId, activity.getActivityId(), activity.getSequence(),
                Json.utc(activity.getTimestamp()), body.type(), payload, projected.partition(), projected.offset(),
                header.getEventId(), Json.utc(at)));
    }

    private static Tuple completed(TenantId tenant, String sessionId, SessionCompleted completed, Instant at) {
        return Tuple.from(Arrays.asList(tenant.value(), sessionId, Json.utc(completed.getCompletedAt()),
                completed.getOutcome().name().toLowerCase(Locale.ROOT), completed.getFinalCodeDiff(),
                completed.getSummaryHint(), completed.getJudgeRequested(), Json.utc(at)));
    }
}
