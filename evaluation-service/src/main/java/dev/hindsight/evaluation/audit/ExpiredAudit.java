package dev.hindsight.evaluation.audit;

import dev.hindsight.platform.work.BackgroundWork;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * The decision audit's state kept for its retention period (design.md § Retention): decision sets and behaviour
 * signals older than {@code hindsight.evaluation.retention.decision-sets} / {@code behavior-signals} (90 days, event
 * time, as the read models keep them) are deleted every {@code hindsight.evaluation.retention.interval}, in chunks.
 * A signal later than its set's period no longer revises it: the set is gone from the read models too.
 */
@Singleton
class ExpiredAudit extends BackgroundWork {

    private static final Logger LOG = Logger.getLogger(ExpiredAudit.class);
    private static final int CHUNK = 10_000;

    private static final String SETS = """
            DELETE FROM decision_set_state /* every tenant: retention */ WHERE ctid IN (
                SELECT ctid FROM decision_set_state WHERE decided_at < $1 LIMIT $2)""";
    private static final String SIGNALS = """
            DELETE FROM behavior_signal /* every tenant: retention */ WHERE ctid IN (
                SELECT ctid FROM behavior_signal WHERE occurred_at < $1 LIMIT $2)""";

    private final Pool pool;
    private final Duration decisionSets;
    private final Duration signals;

    ExpiredAudit(Pool pool, Vertx vertx,
            @ConfigProperty(name = "hindsight.evaluation.retention.interval", defaultValue = "1h") Duration interval,
            @ConfigProperty(name = "hindsight.evaluation.retention.decision-sets", defaultValue = "90d")
            Duration decisionSets,
            @ConfigProperty(name = "hindsight.evaluation.retention.behavior-signals", defaultValue = "90d")
            Duration signals) {
        super(vertx, interval, "Deleting expired decision sets and signals", false);
        this.pool = pool;
        this.decisionSets = decisionSets;
        this.signals = signals;
    }

    @Override
    protected Uni<Boolean> oneRound() {
        return expire(Instant.now()).replaceWith(false);
    }

    /** Deletes what is past its period at {@code now}; completes with the rows deleted. */
    Uni<Long> expire(Instant now) {
        return chunk(SETS, at(now.minus(decisionSets)), 0L)
                .chain(sets -> chunk(SIGNALS, at(now.minus(signals)), 0L).map(rows -> sets + rows))
                .invoke(deleted -> {
                    if (deleted > 0) {
                        LOG.infof("Deleted %d decision sets and signals past their retention", deleted);
                    }
                });
    }

    private static OffsetDateTime at(Instant instant) {
        return OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
    }

    private Uni<Long> chunk(String sql, OffsetDateTime cutoff, long sofar) {
        return pool.preparedQuery(sql).execute(Tuple.of(cutoff, CHUNK)).flatMap(rows -> {
            long total = sofar + rows.rowCount();
            return rows.rowCount() < CHUNK ? Uni.createFrom().item(total) : chunk(sql, cutoff, total);
        });
    }
}
