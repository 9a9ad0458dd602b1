package dev.hindsight.memory.work;

import dev.hindsight.memory.config.MemoryConfig;
import dev.hindsight.platform.redact.Redactor;
import dev.hindsight.platform.tenant.TenantId;
import dev.hindsight.platform.work.BackgroundWork;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * Runs memory-service's durable jobs ({@code memory_job}): distilling a completed session, and turning a session's
 * outcome or QA verdict into outcome signals for the memories it retrieved. A job is claimed with a lease (its due
 * time moves past the lease), so replicas never run the same job at once and a crashed replica's job runs again
 * later; a failed job backs off exponentially and, after the last attempt, is given up with its error kept. A
 * distillation is due when its grace period ends, or sooner once the session's summary and (for a trace, or a
 * session that asked for one) its QA verdict have arrived. Every event a job publishes has an id derived from the
 * job, so running one twice changes nothing.
 */
@Singleton
public class MemoryWorker extends BackgroundWork {

    private static final Logger LOG = Logger.getLogger(MemoryWorker.class);
    private static final Duration LEASE = Duration.ofMinutes(5);

    private static final String CLAIM = """
            UPDATE memory_job j /* every tenant: claiming due jobs */ SET due_at = now() + $2 * interval '1 millisecond', attempts = j.attempts + 1
            FROM (SELECT j2.tenant_id, j2.session_id, j2.kind FROM memory_job j2
                  LEFT JOIN tracked_session s ON s.tenant_id = j2.tenant_id AND s.session_id = j2.session_id
                  WHERE j2.done_at IS NULL
                    AND (j2.due_at <= now()
                         OR (j2.kind = 'distill' AND j2.attempts = 0 AND s.summary_done
                             AND (s.judge_done OR NOT (s.kind = 'debug' OR s.judge_requested))))
                  ORDER BY j2.due_at LIMIT $1 FOR UPDATE OF j2 SKIP LOCKED) due
            WHERE j.tenant_id = due.tenant_id AND j.session_id = due.session_id AND j.kind = due.kind
            RETURNING j.tenant_id, j.session_id, j.kind, j.attempts""";
    private static final String DONE = """
            UPDATE memory_job SET done_at = now(), last_error = NULL WHERE tenant_id = $1 AND session_id = $2 AND kind = $3""";
    private static final String FAILED = """
            UPDATE memory_job SET last_error = $4, due_at = now() + $5 * interval '1 millisecond',
                done_at = CASE WHEN $6::boolean THEN now() END
            WHERE tenant_id = $1 AND session_id = $2 AND kind = $3""";

    /** One claimed job. */
    public record Job(TenantId tenant, String session, String kind, int attempts) {
    }

    private final Pool pool;
    private final MemoryConfig config;
    private final JobRunner runner;

    public MemoryWorker(Pool pool, MemoryConfig config, JobRunner runner, Vertx vertx) {
        super(vertx, config.work().pollInterval(), "Running memory jobs", false);
        this.pool = pool;
        this.config = config;
        this.runner = runner;
    }

    @Override
    protected Uni<Boolean> oneRound() {
        int batch = config.work().batchSize();
        return pool.preparedQuery(CLAIM).execute(Tuple.of(batch, LEASE.toMillis())).flatMap(rows -> {
            List<Job> jobs = new ArrayList<>(rows.size());
            for (Row row : rows) {
                jobs.add(new Job(TenantId.of(row.getString(0)), row.getString(1), row.getString(2), row.getInteger(3)));
            }
            return Multi.createFrom().iterable(jobs).onItem().transformToUniAndConcatenate(this::run)
                    .collect().asList().map(done -> jobs.size() == batch);
        });
    }

    private Uni<Void> run(Job job) {
        return runner.run(job)
                .flatMap(done -> pool.preparedQuery(DONE)
                        .execute(Tuple.of(job.tenant().value(), job.session(), job.kind())))
                .replaceWithVoid()
                .onFailure().recoverWithUni(failure -> {
                    boolean last = job.attempts() >= config.work().maxAttempts();
                    long backoff = config.work().backoff().toMillis() << Math.min(10, job.attempts() - 1);
                    if (last) {
                        LOG.errorf(Redactor.operational(failure), "Giving up %s job for session %s after %d attempts", job.kind(),
                                job.session(), job.attempts());
                    } else {
                        LOG.warnf("%s job for session %s failed (attempt %d): %s", job.kind(), job.session(),
                                job.attempts(), Redactor.operational(failure.toString()));
                    }
                    return pool.preparedQuery(FAILED).execute(Tuple.tuple(List.of(job.tenant().value(), job.session(),
                            job.kind(), Redactor.operational(String.valueOf(failure)), backoff, last)))
                            .replaceWithVoid();
                });
    }
}
