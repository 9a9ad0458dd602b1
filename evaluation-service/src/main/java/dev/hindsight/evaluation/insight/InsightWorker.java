package dev.hindsight.evaluation.insight;

import dev.hindsight.evaluation.config.EvaluationConfig;
import dev.hindsight.evaluation.outbox.Outbox;
import dev.hindsight.evaluation.outbox.OutboxRelay;
import dev.hindsight.platform.redact.Redactor;
import dev.hindsight.platform.tenant.TenantId;
import dev.hindsight.platform.work.BackgroundWork;
import dev.hindsight.platform.work.GroupCommit;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.Timer;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.jboss.logging.Logger;

/**
 * Runs summary and judgement jobs, at most {@code concurrency} at once per instance, each on its own: a slow model
 * call holds up only its own job, never the topic (consumption only records jobs) nor the other jobs. A job that
 * fails is retried with exponential back-off; after the last attempt a failed insight is published with the reason,
 * so nothing is lost silently. A job's result and its completion are one transaction with the outbox row (shared
 * with the other jobs that finished meanwhile: {@link GroupCommit}).
 */
@Singleton
public class InsightWorker extends BackgroundWork {

    private static final Logger LOG = Logger.getLogger(InsightWorker.class);

    // Due pending jobs, and running jobs whose instance died (lease expired); locked rows are another worker's.
    private static final String CLAIM = """
            UPDATE insight_job j /* every tenant: claiming due jobs */ SET state = 'running', attempts = j.attempts + 1,
                   lease_until = now() + make_interval(secs => $2)
            FROM (SELECT tenant_id, session_id, kind, message_index FROM insight_job
                  WHERE (state = 'pending' AND due_at <= now()) OR (state = 'running' AND lease_until < now())
                  ORDER BY due_at LIMIT $1 FOR UPDATE SKIP LOCKED) due
            WHERE (j.tenant_id, j.session_id, j.kind, j.message_index)
                = (due.tenant_id, due.session_id, due.kind, due.message_index)
            RETURNING j.tenant_id, j.session_id, j.kind, j.message_index, j.attempts""";
    private static final String DONE = """
            UPDATE insight_job j SET state = d.state, finished_at = now(), lease_until = NULL, last_error = d.error
            FROM unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::text[], $6::text[])
                 AS d(tenant_id, session_id, kind, message_index, state, error)
            WHERE (j.tenant_id, j.session_id, j.kind, j.message_index)
                = (d.tenant_id, d.session_id, d.kind, d.message_index)
            RETURNING j.tenant_id, j.session_id, j.kind, j.message_index""";
    private static final String RETRY = """
            UPDATE insight_job SET state = 'pending', lease_until = NULL, last_error = $5,
                   due_at = now() + make_interval(secs => $6)
            WHERE tenant_id = $1 AND session_id = $2 AND kind = $3 AND message_index = $4""";

    private final Pool pool;
    private final Outbox outbox;
    private final OutboxRelay relay;
    private final InsightInputs inputs;
    private final InsightModels models;
    private final EvaluationConfig.Insights config;
    private final Clock clock = Clock.systemUTC();
    private final AtomicInteger inFlight = new AtomicInteger();
    /** Finished jobs' outbox rows and states, many jobs per transaction when many finish together. */
    private final GroupCommit<Completion> completions;

    /** A finished job: what it publishes and the state it ends in. */
    private record Completion(InsightJob job, Outbox.Event event, String state, String error) {
    }

    /** A job's row: a job whatever its attempt. */
    private record JobKey(TenantId tenant, String sessionId, InsightJob.Kind kind, int messageIndex) {

        static JobKey of(InsightJob job) {
            return new JobKey(job.tenant(), job.sessionId(), job.kind(), job.messageIndex());
        }
    }

    public InsightWorker(Pool pool, Vertx vertx, Outbox outbox, OutboxRelay relay, InsightInputs inputs,
            InsightModels models, EvaluationConfig config) {
        super(vertx, config.insights().pollInterval(), "Claiming insight jobs", false);
        this.pool = pool;
        this.outbox = outbox;
        this.relay = relay;
        this.inputs = inputs;
        this.models = models;
        this.config = config.insights();
        this.completions = new GroupCommit<>(this::record, 500);
    }

    /** Claims as many due jobs as there is room for and starts them; true when the room was filled (more may wait). */
    @Override
    protected Uni<Boolean> oneRound() {
        int free = config.concurrency() - inFlight.get();
        if (free <= 0) {
            return Uni.createFrom().item(false);
        }
        return pool.preparedQuery(CLAIM).execute(Tuple.of(free, (double) config.lease().toSeconds())).map(rows -> {
            List<InsightJob> jobs = new ArrayList<>(rows.size());
            for (Row row : rows) {
                jobs.add(new InsightJob(TenantId.of(row.getString("tenant_id")), row.getString("session_id"),
                        InsightJob.Kind.of(row.getString("kind")), row.getInteger("message_index"),
                        row.getInteger("attempts")));
            }
            inFlight.addAndGet(jobs.size());
            for (InsightJob job : jobs) {
                run(job).subscribe().with(ignored -> finished(), failure -> {
                    LOG.warnf("Recording the result of %s failed; the job's lease will expire and it runs again: %s",
                            job, failure.toString());
                    finished();
                });
            }
            return jobs.size() == free;
        });
    }

    private void finished() {
        inFlight.decrementAndGet();
        wake();
    }

    /**
     * Runs one job and records its outcome: published, retried later, or published as failed. How long producing the
     * summary or judgement took (model call included) is {@code hindsight_evaluation_job_seconds} by kind and outcome.
     */
    Uni<Void> run(InsightJob job) {
        Timer.Sample started = Timer.start(Metrics.globalRegistry);
        return produce(job)
                .onItemOrFailure().invoke((event, failure) -> started.stop(Timer.builder("hindsight.evaluation.job")
                        .tag("kind", job.kind().wireName()).tag("outcome", failure == null ? "done" : "error")
                        .publishPercentileHistogram().register(Metrics.globalRegistry)))
                .chain(event -> complete(job, event, "done", null))
                .onFailure().recoverWithUni(failure -> {
                    String reason = reason(failure);
                    if (job.attempts() >= config.maxAttempts()) {
                        LOG.warnf("%s failed for good after %d attempts: %s", job, job.attempts(), reason);
                        return complete(job, failed(job, reason), "failed", reason);
                    }
                    Duration delay = config.backoff().multipliedBy(1L << Math.min(job.attempts() - 1, 10));
                    LOG.infof("%s failed (attempt %d), retrying in %s: %s", job, job.attempts(), delay, reason);
                    return pool.preparedQuery(RETRY).execute(Tuple.of(job.tenant().value(), job.sessionId(),
                            job.kind().wireName(), job.messageIndex(), reason, delay.toMillis() / 1000.0))
                            .replaceWithVoid();
                });
    }

    private Uni<Outbox.Event> produce(InsightJob job) {
        return switch (job.kind()) {
            case MESSAGE_SUMMARY -> {
                Summarizer summarizer = models.summarizerFor(job.tenant());
                yield inputs.message(job).chain(summarizer::summarizeMessage)
                        .map(summary -> InsightEvents.messageSummarized(job, summary, null, summarizer.id(), clock));
            }
            case SESSION_SUMMARY -> {
                Summarizer summarizer = models.summarizerFor(job.tenant());
                yield inputs.digest(job).chain(summarizer::summarizeSession)
                        .map(summary -> InsightEvents.sessionSummarized(job, summary, null, summarizer.id(), clock));
            }
            case TRACE_JUDGEMENT -> {
                Judge judge = models.judgeFor(job.tenant());
                yield inputs.trace(job).chain(judge::judge)
                        .map(judgement -> InsightEvents.traceJudged(job, judgement, null, judge.id(), clock));
            }
        };
    }

    private Outbox.Event failed(InsightJob job, String reason) {
        return switch (job.kind()) {
            case MESSAGE_SUMMARY -> InsightEvents.messageSummarized(job, null, reason, models.summarizerFor(job.tenant()).id(), clock);
            case SESSION_SUMMARY -> InsightEvents.sessionSummarized(job, null, reason, models.summarizerFor(job.tenant()).id(), clock);
            case TRACE_JUDGEMENT -> InsightEvents.traceJudged(job, null, reason, models.judgeFor(job.tenant()).id(),
                    clock);
        };
    }

    /**
     * Records a job's result and completion in one transaction with its outbox row; jobs that finish while another
     * group is being recorded share the next transaction (one commit per group, not per message: docs/benchmarks.md).
     */
    private Uni<Void> complete(InsightJob job, Outbox.Event event, String state, String error) {
        return completions.submit(new Completion(job, event, state, error));
    }

    private Uni<Void> record(List<Completion> done) {
        int n = done.size();
        String[] tenants = new String[n];
        String[] sessions = new String[n];
        String[] kinds = new String[n];
        Integer[] indexes = new Integer[n];
        String[] states = new String[n];
        String[] errors = new String[n];
        for (int i = 0; i < n; i++) {
            Completion c = done.get(i);
            tenants[i] = c.job().tenant().value();
            sessions[i] = c.job().sessionId();
            kinds[i] = c.job().kind().wireName();
            indexes[i] = c.job().messageIndex();
            states[i] = c.state();
            errors[i] = c.error();
        }
        return pool.withTransaction(tx -> tx.preparedQuery(DONE).execute(Tuple.from(java.util.Arrays.asList(
                        tenants, sessions, kinds, indexes, states, errors)))
                        .chain(recorded -> {
                            // A job whose row is gone had its session erased while it ran (ADR 0028): what it
                            // produced is never published. The erasure deletes the row before the outbox, so a job
                            // recorded first has its event deleted with the rest.
                            Set<JobKey> still = new HashSet<>();
                            for (Row row : recorded) {
                                still.add(new JobKey(TenantId.of(row.getString("tenant_id")),
                                        row.getString("session_id"), InsightJob.Kind.of(row.getString("kind")),
                                        row.getInteger("message_index")));
                            }
                            List<Outbox.Event> events = done.stream().filter(c -> still.contains(JobKey.of(c.job())))
                                    .map(Completion::event).toList();
                            return outbox.add(tx, events).replaceWith(!events.isEmpty());
                        }))
                .invoke(added -> {
                    if (added) {
                        relay.wake();
                    }
                })
                .replaceWithVoid();
    }

    private static String reason(Throwable failure) {
        // A model's error may quote the text it was given: its secrets never reach the job table, the event or the log.
        String message = failure.getMessage();
        return failure.getClass().getSimpleName() + (message == null ? "" : ": " + Redactor.operational(message));
    }
}
