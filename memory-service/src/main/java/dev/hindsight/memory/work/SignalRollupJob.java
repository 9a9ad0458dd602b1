package dev.hindsight.memory.work;

import dev.hindsight.memory.config.MemoryConfig;
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
 * The daily rollup (design.md § Signal storage): signals older than {@code keep-individually} (30 days) leave the
 * individual log and are added to their memory's aggregate, in one statement, so a signal is counted exactly once at
 * every moment. Memories' signal totals, and so their confidence, do not change. Replicas may run it at the same time:
 * a row can be deleted (and counted) by one of them only. The aggregate keeps one row per memory and session ('' for
 * signals that named none), so that erasing a session can still subtract what it gave (ADR 0028).
 */
@Singleton
public class SignalRollupJob extends BackgroundWork {

    private static final Logger LOG = Logger.getLogger(SignalRollupJob.class);

    private static final String ROLLUP = """
            WITH old AS (
                DELETE FROM memory_signal WHERE recorded_at < $1
                RETURNING memory_id, coalesce(session_id, '') AS session_id, kind, positive),
            counts AS (
                SELECT memory_id, session_id,
                       count(*) FILTER (WHERE kind = 'explicit' AND positive) AS ep,
                       count(*) FILTER (WHERE kind = 'explicit' AND NOT positive) AS en,
                       count(*) FILTER (WHERE kind = 'usage') AS u,
                       count(*) FILTER (WHERE kind = 'outcome' AND positive) AS op,
                       count(*) FILTER (WHERE kind = 'outcome' AND NOT positive) AS onn
                FROM old GROUP BY memory_id, session_id)
            INSERT INTO memory_signal_aggregate AS a (memory_id, session_id, explicit_positive, explicit_negative,
                                                      usage_count, outcome_positive, outcome_negative, rolled_up_until)
            SELECT memory_id, session_id, ep, en, u, op, onn, $1 FROM counts
            ON CONFLICT (memory_id, session_id) DO UPDATE SET
                explicit_positive = a.explicit_positive + EXCLUDED.explicit_positive,
                explicit_negative = a.explicit_negative + EXCLUDED.explicit_negative,
                usage_count = a.usage_count + EXCLUDED.usage_count,
                outcome_positive = a.outcome_positive + EXCLUDED.outcome_positive,
                outcome_negative = a.outcome_negative + EXCLUDED.outcome_negative,
                rolled_up_until = greatest(a.rolled_up_until, EXCLUDED.rolled_up_until)""";

    private final Pool pool;
    private final MemoryConfig config;

    public SignalRollupJob(Pool pool, MemoryConfig config, Vertx vertx) {
        super(vertx, config.signals().rollupEvery(), "Rolling up old signals", true);
        this.pool = pool;
        this.config = config;
    }

    @Override
    protected Uni<Boolean> oneRound() {
        return rollUp(Instant.now().minus(config.signals().keepIndividually())).replaceWith(false);
    }

    /** Rolls up every signal recorded before {@code cutoff}; completes with how many (memory, session) aggregates grew. */
    public Uni<Integer> rollUp(Instant cutoff) {
        return pool.withTransaction(tx -> tx.preparedQuery(ROLLUP)
                        .execute(Tuple.of(OffsetDateTime.ofInstant(cutoff, ZoneOffset.UTC))))
                .map(done -> done.rowCount())
                .invoke(n -> {
                    if (n > 0) {
                        LOG.infof("Rolled up signals older than %s into %d memories' aggregates", cutoff, n);
                    }
                });
    }
}
