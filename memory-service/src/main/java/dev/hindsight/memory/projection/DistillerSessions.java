package dev.hindsight.memory.projection;

import dev.hindsight.events.reasoning.ActivityRecorded;
import dev.hindsight.events.reasoning.MessageRecorded;
import dev.hindsight.events.reasoning.PositionRecorded;
import dev.hindsight.events.reasoning.ReasoningEvent;
import dev.hindsight.events.reasoning.SessionCompleted;
import dev.hindsight.events.reasoning.SessionOutcome;
import dev.hindsight.events.reasoning.SessionStarted;
import dev.hindsight.events.reasoning.ThinkingStep;
import dev.hindsight.memory.config.MemoryConfig;
import dev.hindsight.memory.work.MemoryWorker;
import dev.hindsight.platform.consumer.DeadLetters;
import dev.hindsight.platform.erasure.ErasureLog;
import dev.hindsight.platform.consumer.LedgeredProjection;
import dev.hindsight.platform.consumer.TransactionalBatches.Consumed;
import dev.hindsight.platform.events.TraceActivity;
import dev.hindsight.platform.kafka.Decoded;
import dev.hindsight.platform.tenant.TenantId;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Singleton;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * Keeps what the distiller needs from hindsight.reasoning.v1 (each session's project, kind, model and task, its
 * messages with thinking steps, its activities) and, when a session completes, schedules its distillation and, if it
 * succeeded or failed, an outcome signal for every memory it retrieved. A polled batch is one transaction.
 *
 * <p>A session's project is its {@code project} label; without one, a debugging trace's repository name, else its kind.
 */
@Singleton
class DistillerSessions extends LedgeredProjection<ReasoningEvent> {

    static final String CONSUMER = "memory.reasoning";

    private static final String STARTED = """
            INSERT INTO tracked_session (tenant_id, session_id, project_id, kind, model, task, started_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7)
            ON CONFLICT (tenant_id, session_id) DO UPDATE SET project_id = EXCLUDED.project_id, kind = EXCLUDED.kind,
                model = EXCLUDED.model, task = coalesce(EXCLUDED.task, tracked_session.task),
                started_at = EXCLUDED.started_at""";
    private static final String TURN = """
            INSERT INTO tracked_turn (tenant_id, session_id, message_index, role, content, steps)
            VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING""";
    private static final String ACTIVITY = """
            INSERT INTO tracked_activity (tenant_id, session_id, event_id, occurred_at, type, content, exit_code, output)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING""";
    private static final String COMPLETED = """
            INSERT INTO tracked_session (tenant_id, session_id, completed_at, outcome, final_code_diff, judge_requested)
            VALUES ($1, $2, $3, $4, $5, $6)
            ON CONFLICT (tenant_id, session_id) DO UPDATE SET completed_at = EXCLUDED.completed_at,
                outcome = EXCLUDED.outcome, final_code_diff = EXCLUDED.final_code_diff,
                judge_requested = EXCLUDED.judge_requested""";
    private static final String JOB = """
            INSERT INTO memory_job (tenant_id, session_id, kind, due_at) VALUES ($1, $2, $3, $4)
            ON CONFLICT DO NOTHING""";

    private final MemoryConfig config;

    public DistillerSessions(Pool pool, DeadLetters deadLetters, ErasureLog erasures, MemoryWorker worker, MemoryConfig config) {
        super(pool, deadLetters, erasures, "reasoning", CONSUMER, ReasoningEvent.class, ReasoningEvent::getHeader);
        this.config = config;
        wakeAfterCommit(worker::wake);
    }

    @Incoming("reasoning")
    public Uni<Void> consume(ConsumerRecords<String, Decoded> records) {
        return process(records);
    }

    @Override
    protected Uni<Void> write(SqlClient tx, List<Consumed<ReasoningEvent>> events) {
        List<Tuple> started = new ArrayList<>();
        List<Tuple> turns = new ArrayList<>();
        List<Tuple> activities = new ArrayList<>();
        List<Tuple> completed = new ArrayList<>();
        List<Tuple> jobs = new ArrayList<>();
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
        for (Consumed<ReasoningEvent> consumed : events) {
            ReasoningEvent event = consumed.envelope();
            TenantId tenant = TenantId.of(event.getHeader().getTenantId());
            String session = event.getSessionId();
            Object payload = event.getPayload();
            if (payload instanceof SessionStarted s) {
                started.add(Tuple.from(Arrays.asList(tenant.value(), session, project(s),
                        s.getKind().name().toLowerCase(Locale.ROOT), model(s), task(s), at(s.getStartedAt()))));
            } else if (payload instanceof MessageRecorded m) {
                turns.add(Tuple.from(Arrays.asList(tenant.value(), session, m.getMessageIndex(),
                        m.getRole().name().toLowerCase(Locale.ROOT), m.getContent(), steps(m))));
            } else if (payload instanceof ActivityRecorded a) {
                activities.add(activity(tenant, session, event, a));
            } else if (payload instanceof SessionCompleted c) {
                completed.add(Tuple.from(Arrays.asList(tenant.value(), session, at(c.getCompletedAt()),
                        c.getOutcome().name().toLowerCase(Locale.ROOT), c.getFinalCodeDiff(), c.getJudgeRequested())));
                jobs.add(Tuple.of(tenant.value(), session, "distill", now.plus(config.distill().grace())));
                if (c.getOutcome() != SessionOutcome.UNKNOWN) {
                    jobs.add(Tuple.of(tenant.value(), session, "session_outcome",
                            now.plus(config.distill().outcomeDelay())));
                }
            } else if (!(payload instanceof PositionRecorded)) {
                throw new IllegalArgumentException("unknown reasoning payload " + payload.getClass().getName());
            }
        }
        return executeBatch(tx, STARTED, started)
                .chain(() -> executeBatch(tx, TURN, turns))
                .chain(() -> executeBatch(tx, ACTIVITY, activities))
                .chain(() -> executeBatch(tx, COMPLETED, completed))
                .chain(() -> executeBatch(tx, JOB, jobs));
    }

    /** The session's project: its {@code project} label, a debugging trace's repository name, else its kind. */
    static String project(SessionStarted s) {
        Map<String, String> labels = s.getLabels();
        String label = labels == null ? null : labels.get("project");
        if (label != null && !label.isBlank()) {
            return label.strip();
        }
        if (s.getDebug() != null && s.getDebug().getRepoUrl() != null) {
            String repo = s.getDebug().getRepoUrl().replaceAll("[/]+$", "").replaceAll("\\.git$", "");
            String name = repo.substring(repo.lastIndexOf('/') + 1);
            if (!name.isBlank()) {
                return name;
            }
        }
        return s.getKind().name().toLowerCase(Locale.ROOT);
    }

    private static String model(SessionStarted s) {
        if (s.getTrading() != null) {
            return s.getTrading().getModel();
        }
        return s.getChat() == null ? null : s.getChat().getModel();
    }

    private static String task(SessionStarted s) {
        if (s.getDebug() != null) {
            return s.getDebug().getTaskDescription() != null ? s.getDebug().getTaskDescription() : s.getDebug().getTaskId();
        }
        if (s.getTrading() != null) {
            return "Trading day " + s.getTrading().getDate() + " (" + s.getTrading().getJobId() + ")";
        }
        return s.getChat() == null ? null : s.getChat().getTitle();
    }

    private static JsonArray steps(MessageRecorded m) {
        JsonArray steps = new JsonArray();
        for (ThinkingStep step : m.getThinkingSteps()) {
            steps.add(new JsonObject().put("order", step.getStepOrder())
                    .put("type", step.getStepType().name().toLowerCase(Locale.ROOT))
                    .put("content", step.getContent()).put("tool_name", step.getToolName())
                    .put("tool_result", step.getToolResult()).put("tool_error", step.getToolError()));
        }
        if (steps.isEmpty() && m.getLegacyReasoning() != null) {
            steps.add(new JsonObject().put("order", 0).put("type", "reasoning").put("content", m.getLegacyReasoning()));
        }
        return steps;
    }

    private static Tuple activity(TenantId tenant, String session, ReasoningEvent event, ActivityRecorded a) {
        TraceActivity activity = TraceActivity.of(a);
        String content;
        String output = null;
        switch (activity.type()) {
            case TraceActivity.THOUGHT_LOG -> content = activity.thoughtText();
            case TraceActivity.FILE_EDIT -> {
                content = activity.filePath();
                output = activity.contentDiff();
            }
            default -> {
                content = activity.commandText();
                String stdout = activity.stdout() == null ? "" : activity.stdout();
                String stderr = activity.stderr() == null ? "" : activity.stderr();
                output = (stdout.isBlank() || stderr.isBlank() ? stdout + stderr : stdout + "\n" + stderr).strip();
            }
        }
        return Tuple.from(Arrays.asList(tenant.value(), session, event.getHeader().getEventId(), at(a.getTimestamp()),
                activity.type(), content, activity.exitCode(), output));
    }

    private static OffsetDateTime at(Instant instant) {
        return instant == null ? null : OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
    }

}
