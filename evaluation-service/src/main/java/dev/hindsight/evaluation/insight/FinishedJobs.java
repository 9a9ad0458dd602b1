package dev.hindsight.evaluation.insight;

import dev.hindsight.evaluation.config.EvaluationConfig;
import dev.hindsight.platform.work.BackgroundWork;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Singleton;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import org.jboss.logging.Logger;

/**
 * Deletes insight jobs that finished (done or failed) more than {@code keep-finished} ago, every {@code prune-every}:
 * a job's result is an event on hindsight.insights.v1, so its row is only bookkeeping, and one job per summarized
 * message would otherwise grow the table without end. Deleted in chunks so no transaction holds many locks. Replicas
 * may prune at the same time: a row is deleted once.
 */
@Singleton
class FinishedJobs extends BackgroundWork {

    private static final Logger LOG = Logger.getLogger(FinishedJobs.class);
    private static final int CHUNK = 10_000;

    private static final String PRUNE = """
            DELETE FROM insight_job /* every tenant: finished jobs */ WHERE ctid IN (
                SELECT ctid FROM insight_job WHERE state IN ('done', 'failed') AND finished_at < $1 LIMIT $2)""";

    private final Pool pool;
    private final EvaluationConfig.Insights config;

    public FinishedJobs(Pool pool, EvaluationConfig config, Vertx vertx) {
        super(vertx, config.insights().pruneEvery(), "Deleting finished insight jobs", false);
        this.pool = pool;
        this.config = config.insights();
    }

    @Override
    protected Uni<Boolean> oneRound() {
        return prune(Instant.now().minus(config.keepFinished())).replaceWith(false);
    }

    /** Deletes every job that finished before {@code cutoff}; completes with how many. */
    public Uni<Long> prune(Instant cutoff) {
        return chunk(OffsetDateTime.ofInstant(cutoff, ZoneOffset.UTC), 0L).invoke(deleted -> {
            if (deleted > 0) {
                LOG.infof("Deleted %d insight jobs finished before %s", deleted, cutoff);
            }
        });
    }

    private Uni<Long> chunk(OffsetDateTime cutoff, long sofar) {
        return pool.preparedQuery(PRUNE).execute(Tuple.of(cutoff, CHUNK)).flatMap(rows -> {
            long total = sofar + rows.rowCount();
            return rows.rowCount() < CHUNK ? Uni.createFrom().item(total) : chunk(cutoff, total);
        });
    }
}
