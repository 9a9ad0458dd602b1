package dev.hindsight.platform.consumer;

import dev.hindsight.platform.work.BackgroundWork;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import org.eclipse.microprofile.config.ConfigProvider;
import org.jboss.logging.Logger;

/**
 * Keeps a service's idempotent-consumer ledger ({@link Ledger}) to its deduplication window: every
 * {@code hindsight.consumer.ledger-prune-every}, ledger rows claimed longer ago than
 * {@code hindsight.consumer.dedup-window} are deleted, in chunks so no transaction holds many locks. Within the window
 * an event delivered again (a consumer's redelivery, a producer's retry with the same event id) is applied once;
 * beyond it, only writes idempotent on their natural keys keep it once (design.md § Delivery guarantees). A service
 * with a ledger declares one {@code @Singleton} subclass; query-service's names every read-model generation's ledger.
 * Replicas may prune at the same time: a row is deleted once.
 */
public abstract class LedgerPruning extends BackgroundWork {

    private static final Logger LOG = Logger.getLogger(LedgerPruning.class);
    private static final int CHUNK = 10_000;

    private static final String PRUNE = """
            DELETE FROM %1$s /* every tenant: ledger rows past the window */ WHERE ctid IN (
                SELECT ctid FROM %1$s WHERE processed_at < $1 LIMIT $2)""";

    private final Pool pool;
    private final Duration window;

    protected LedgerPruning(Pool pool, Vertx vertx) {
        super(vertx, setting("hindsight.consumer.ledger-prune-every", Duration.ofMinutes(10)),
                "Pruning the consumer ledger", true);
        this.pool = pool;
        this.window = setting("hindsight.consumer.dedup-window", Duration.ofDays(7));
    }

    private static Duration setting(String name, Duration fallback) {
        return ConfigProvider.getConfig().getOptionalValue(name, Duration.class).orElse(fallback);
    }

    /** The deduplication window: how long a claimed event id stays in the ledger. */
    public Duration window() {
        return window;
    }

    /** The ledger tables to prune; the platform's {@code processed_event} unless a service keeps others. */
    protected Uni<List<String>> tables() {
        return Uni.createFrom().item(List.of("processed_event"));
    }

    @Override
    protected Uni<Boolean> oneRound() {
        return prune(Instant.now().minus(window)).replaceWith(false);
    }

    /** Deletes every ledger row claimed before {@code cutoff}; completes with how many. */
    public Uni<Long> prune(Instant cutoff) {
        OffsetDateTime before = OffsetDateTime.ofInstant(cutoff, ZoneOffset.UTC);
        return tables().chain(tables -> {
            Uni<Long> total = Uni.createFrom().item(0L);
            for (String table : tables) {
                total = total.chain(sofar -> chunk(table, before, sofar));
            }
            return total;
        }).invoke(deleted -> {
            if (deleted > 0) {
                LOG.infof("Pruned %d ledger rows claimed before %s (deduplication window %s)", deleted, cutoff,
                        window);
            }
        });
    }

    private Uni<Long> chunk(String table, OffsetDateTime cutoff, long sofar) {
        return pool.preparedQuery(PRUNE.formatted(table)).execute(Tuple.of(cutoff, CHUNK)).flatMap(rows -> {
            long total = sofar + rows.rowCount();
            return rows.rowCount() < CHUNK ? Uni.createFrom().item(total) : chunk(table, cutoff, total);
        });
    }
}
