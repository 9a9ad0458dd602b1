package dev.hindsight.evaluation.session;

import dev.hindsight.evaluation.insight.InsightEvents;
import dev.hindsight.evaluation.insight.InsightJob;
import dev.hindsight.evaluation.insight.InsightModels;
import dev.hindsight.evaluation.insight.InsightWorker;
import dev.hindsight.evaluation.insight.Summarizer;
import dev.hindsight.evaluation.outbox.Outbox;
import dev.hindsight.evaluation.outbox.OutboxRelay;
import dev.hindsight.events.reasoning.ActivityRecorded;
import dev.hindsight.events.reasoning.MessageRecorded;
import dev.hindsight.events.reasoning.MessageRole;
import dev.hindsight.events.reasoning.PositionRecorded;
import dev.hindsight.events.reasoning.ReasoningEvent;
import dev.hindsight.events.reasoning.SessionCompleted;
import dev.hindsight.events.reasoning.SessionKind;
import dev.hindsight.events.reasoning.SessionStarted;
import dev.hindsight.events.reasoning.ThinkingStep;
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
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

/**
 * Keeps what summaries and the QA judge need from {@code hindsight.reasoning.v1} (session attributes, messages,
 * positions as short facts, trace steps) and records the work they imply: a summary per assistant message, and on
 * completion a session-summary job and, for debugging traces or sessions that ask for it, a judgement job. A message
 * summary that needs no model call (the extractive summarizer) is written to the outbox right here, in the
 * transaction that records the message; one that does becomes a job for the worker (ADR 0006, ADR 0020). A polled batch is one
 * transaction; the worker and the outbox relay are woken after it commits.
 */
@Singleton
class JudgedSessions extends LedgeredProjection<ReasoningEvent> {

    static final String CONSUMER = "evaluation.reasoning";

    private static final String UPSERT_STARTED = """
            INSERT INTO session_state (tenant_id, session_id, kind, title, task_description)
            VALUES ($1, $2, $3, $4, $5)
            ON CONFLICT (tenant_id, session_id) DO UPDATE SET
                kind = EXCLUDED.kind, title = EXCLUDED.title, task_description = EXCLUDED.task_description""";
    // Returns the index only when this event took it (the first message at an index wins).
    private static final String INSERT_MESSAGE = """
            INSERT INTO session_message (tenant_id, session_id, message_index, role, content, occurred_at, steps)
            VALUES ($1, $2, $3, $4, $5, $6, $7)
            ON CONFLICT DO NOTHING
            RETURNING message_index""";
    private static final String INSERT_ACTION = """
            INSERT INTO session_action (tenant_id, session_id, action_id, description, occurred_at)
            VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING""";
    private static final String INSERT_STEP = """
            INSERT INTO session_step (tenant_id, session_id, step_id, sequence, occurred_at, source_offset, kind, text,
                                      file_path, diff, command, exit_code, stdout, stderr)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) ON CONFLICT DO NOTHING""";
    private static final String UPSERT_COMPLETED = """
            INSERT INTO session_state (tenant_id, session_id, completed_at, outcome, final_code_diff, summary_hint)
            VALUES ($1, $2, $3, $4, $5, $6)
            ON CONFLICT (tenant_id, session_id) DO UPDATE SET
                completed_at = EXCLUDED.completed_at, outcome = EXCLUDED.outcome,
                final_code_diff = EXCLUDED.final_code_diff, summary_hint = EXCLUDED.summary_hint""";
    // Only for assistant messages this batch recorded whose summary needs a model call.
    private static final String MESSAGE_JOB = """
            INSERT INTO insight_job (tenant_id, session_id, kind, message_index) VALUES ($1, $2, 'message_summary', $3)
            ON CONFLICT DO NOTHING""";
    private static final String SESSION_JOB = """
            INSERT INTO insight_job (tenant_id, session_id, kind) VALUES ($1, $2, 'session_summary')
            ON CONFLICT DO NOTHING""";
    private static final String JUDGEMENT_JOB = """
            INSERT INTO insight_job (tenant_id, session_id, kind)
            SELECT $1::text, $2::text, 'trace_judgement'
            WHERE $3::boolean OR EXISTS (SELECT 1 FROM session_state WHERE tenant_id = $1 AND session_id = $2 AND kind = 'debug')
            ON CONFLICT DO NOTHING""";

    private static final Logger LOG = Logger.getLogger(JudgedSessions.class);

    private final InsightModels models;
    private final Outbox outbox;
    private final Clock clock = Clock.systemUTC();

    public JudgedSessions(Pool pool, DeadLetters deadLetters, ErasureLog erasures, InsightWorker worker, InsightModels models,
            Outbox outbox, OutboxRelay relay) {
        super(pool, deadLetters, erasures, "reasoning", CONSUMER, ReasoningEvent.class, ReasoningEvent::getHeader);
        this.models = models;
        this.outbox = outbox;
        wakeAfterCommit(worker::wake);
        wakeAfterCommit(relay::wake);
    }

    /** An assistant message recorded by this batch, whose summary is due. */
    private record Assistant(TenantId tenant, String session, int index, String content) {
    }

    @Incoming("reasoning")
    public Uni<Void> consume(ConsumerRecords<String, Decoded> records) {
        return process(records);
    }

    @Override
    protected Uni<Void> write(SqlClient tx, List<Consumed<ReasoningEvent>> events) {
        List<Tuple> started = new ArrayList<>();
        List<Tuple> messages = new ArrayList<>();
        List<Assistant> assistants = new ArrayList<>(); // aligned with messages: null for other roles
        List<Tuple> actions = new ArrayList<>();
        List<Tuple> steps = new ArrayList<>();
        List<Tuple> completed = new ArrayList<>();
        List<Tuple> sessionJobs = new ArrayList<>();
        List<Tuple> judgementJobs = new ArrayList<>();
        for (Consumed<ReasoningEvent> consumed : events) {
            ReasoningEvent event = consumed.envelope();
            TenantId tenant = TenantId.of(event.getHeader().getTenantId());
            String session = event.getSessionId();
            Object payload = event.getPayload();
            if (payload instanceof SessionStarted s) {
                started.add(Tuple.of(tenant.value(), session, s.getKind().name().toLowerCase(Locale.ROOT), title(s),
                        s.getDebug() == null ? null : s.getDebug().getTaskDescription()));
            } else if (payload instanceof MessageRecorded m) {
                messages.add(messageTuple(tenant, session, m));
                assistants.add(m.getRole() == MessageRole.ASSISTANT
                        ? new Assistant(tenant, session, m.getMessageIndex(), m.getContent()) : null);
            } else if (payload instanceof PositionRecorded p) {
                actions.add(Tuple.of(tenant.value(), session, String.valueOf(p.getActionId()), describe(p),
                        at(event.getHeader().getOccurredAt())));
            } else if (payload instanceof ActivityRecorded a) {
                steps.add(step(tenant, session, a, consumed.record().offset()));
            } else if (payload instanceof SessionCompleted c) {
                completed.add(Tuple.of(tenant.value(), session, at(c.getCompletedAt()),
                        c.getOutcome().name().toLowerCase(Locale.ROOT), c.getFinalCodeDiff(), c.getSummaryHint()));
                sessionJobs.add(Tuple.of(tenant.value(), session));
                judgementJobs.add(Tuple.of(tenant.value(), session, c.getJudgeRequested()));
            } else {
                throw new IllegalArgumentException("unknown reasoning payload " + payload.getClass().getName());
            }
        }
        // Order matters only for the jobs: the judgement job looks at the session row written before it.
        return executeBatch(tx, UPSERT_STARTED, started)
                .chain(() -> messages.isEmpty() ? Uni.createFrom().voidItem()
                        : tx.preparedQuery(INSERT_MESSAGE).executeBatch(messages)
                                .chain(inserted -> summarize(tx, assistants, inserted)))
                .chain(() -> executeBatch(tx, INSERT_ACTION, actions))
                .chain(() -> executeBatch(tx, INSERT_STEP, steps))
                .chain(() -> executeBatch(tx, UPSERT_COMPLETED, completed))
                .chain(() -> executeBatch(tx, SESSION_JOB, sessionJobs))
                .chain(() -> executeBatch(tx, JUDGEMENT_JOB, judgementJobs));
    }

    /**
     * Summaries of the assistant messages this batch recorded (the first at an index): written to the outbox now when
     * the summarizer needs no model, otherwise left to the worker as jobs. An inline summary that fails also becomes a
     * job, which retries and in the end publishes the failure: a summarizer bug never dead-letters a message.
     */
    private Uni<Void> summarize(SqlClient tx, List<Assistant> assistants, RowSet<Row> inserted) {
        List<Outbox.Event> summaries = new ArrayList<>();
        List<Tuple> jobs = new ArrayList<>();
        int i = 0;
        for (RowSet<Row> result = inserted; result != null && i < assistants.size(); result = result.next(), i++) {
            Assistant message = assistants.get(i);
            if (message == null || result.rowCount() == 0) {
                continue;
            }
            InsightJob job = new InsightJob(message.tenant(), message.session(), InsightJob.Kind.MESSAGE_SUMMARY,
                    message.index(), 1);
            Summarizer summarizer = models.summarizerFor(message.tenant());
            Optional<String> summary;
            try {
                summary = summarizer.summarizeMessageInline(message.content());
            } catch (RuntimeException e) {
                LOG.warnf("Summarizing message %d of session %s inline failed; leaving it to a job: %s",
                        message.index(), message.session(), e.toString());
                summary = Optional.empty();
            }
            if (summary.isPresent()) {
                summaries.add(InsightEvents.messageSummarized(job, summary.get(), null, summarizer.id(), clock));
            } else {
                jobs.add(Tuple.of(message.tenant().value(), message.session(), message.index()));
            }
        }
        return outbox.add(tx, summaries).chain(() -> executeBatch(tx, MESSAGE_JOB, jobs));
    }

    private static Tuple messageTuple(TenantId tenant, String session, MessageRecorded m) {
        return Tuple.from(java.util.Arrays.asList(tenant.value(), session, m.getMessageIndex(),
                m.getRole().name().toLowerCase(Locale.ROOT), m.getContent(), at(m.getTimestamp()), steps(m)));
    }

    private static String title(SessionStarted s) {
        if (s.getKind() == SessionKind.TRADING && s.getTrading() != null) {
            return s.getTrading().getModel() + " on " + s.getTrading().getDate();
        }
        if (s.getKind() == SessionKind.CHAT && s.getChat() != null) {
            return s.getChat().getTitle() != null ? s.getChat().getTitle() : s.getChat().getModel();
        }
        if (s.getKind() == SessionKind.DEBUG && s.getDebug() != null) {
            return s.getDebug().getTaskId();
        }
        return null;
    }

    /** A position as a short fact for the session summary, e.g. "buy 10 NVDA". */
    static String describe(PositionRecorded p) {
        StringBuilder fact = new StringBuilder(p.getActionType());
        if (p.getAmount() != null) {
            double amount = p.getAmount();
            fact.append(' ').append(amount == Math.rint(amount) ? String.valueOf((long) amount) : String.valueOf(amount));
        }
        if (p.getSymbol() != null) {
            fact.append(' ').append(p.getSymbol());
        }
        return fact.toString();
    }

    /** An assistant message's thinking steps as trace steps, so the judge can score a session that asked for it. */
    private static JsonArray steps(MessageRecorded m) {
        if (m.getThinkingSteps().isEmpty()) {
            return null;
        }
        JsonArray steps = new JsonArray();
        for (ThinkingStep step : m.getThinkingSteps()) {
            JsonObject json = new JsonObject().put("order", step.getStepOrder());
            switch (step.getStepType()) {
                case REASONING -> json.put("kind", "THOUGHT").put("text", step.getContent());
                case TOOL -> json.put("kind", "COMMAND")
                        .put("command", step.getToolName() + (step.getToolArguments() == null ? ""
                                : " " + step.getToolArguments()))
                        .put("exit_code", step.getToolError() == null ? 0 : 1)
                        .put("stdout", step.getToolResult()).put("stderr", step.getToolError());
            }
            steps.add(json);
        }
        return steps;
    }

    private static Tuple step(TenantId tenant, String session, ActivityRecorded a, long offset) {
        TraceActivity activity = TraceActivity.of(a);
        String kind = switch (activity.type()) {
            case TraceActivity.THOUGHT_LOG -> "THOUGHT";
            case TraceActivity.FILE_EDIT -> "EDIT";
            default -> "COMMAND";
        };
        return Tuple.from(java.util.Arrays.asList(tenant.value(), session, a.getActivityId(), a.getSequence(),
                at(a.getTimestamp()), offset, kind, activity.thoughtText(), activity.filePath(), activity.contentDiff(),
                activity.commandText(), activity.exitCode(), activity.stdout(), activity.stderr()));
    }

    private static OffsetDateTime at(Instant instant) {
        return instant.atOffset(ZoneOffset.UTC);
    }
}
