package dev.hindsight.query.readmodel;

import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * The scheduled retention job: every feature's {@link Expiry} over every generation being read or written
 * (design.md § Retention by topic and read model), then retired read-model generations dropped after their grace
 * period. Kafka keeps the source events: retention here bounds what dashboards show and what the database holds, not
 * the history.
 */
@ApplicationScoped
public class Retention {

    private static final Logger LOG = Logger.getLogger(Retention.class);

    private final Pool pool;
    private final Generations generations;
    private final List<Expiry> expiries;
    private final Duration interval;
    private final Duration retiredGrace;

    Retention(Pool pool, Generations generations, @Any Instance<Expiry> expiries,
            @ConfigProperty(name = "hindsight.query.retention.interval", defaultValue = "1h") Duration interval,
            @ConfigProperty(name = "hindsight.query.retired-generation-grace", defaultValue = "10m")
            Duration retiredGrace) {
        this.pool = pool;
        this.generations = generations;
        this.expiries = expiries.stream().toList();
        this.interval = interval;
        this.retiredGrace = retiredGrace;
    }

    void onStart(@Observes StartupEvent event, Vertx vertx) {
        vertx.setPeriodic(interval.toMillis(), interval.toMillis(), id -> run().subscribe().with(
                deleted -> LOG.debugf("Retention: %s", deleted),
                e -> LOG.warnf("Retention run failed (retried next run): %s", e.toString())));
    }

    /** One run over every generation being read or written; answers rows deleted per table. */
    public Uni<Map<String, Long>> run() {
        Map<String, Long> deleted = new TreeMap<>();
        return generations.writable(pool).chain(models -> {
            Uni<Void> chain = Uni.createFrom().voidItem();
            for (ReadModel model : models) {
                for (Expiry expiry : expiries) {
                    chain = chain.chain(() -> expiry.expire(pool, model, deleted));
                }
            }
            return chain;
        }).chain(() -> generations.dropRetired(retiredGrace)).map(dropped -> {
            if (deleted.values().stream().anyMatch(n -> n > 0) || dropped > 0) {
                LOG.infof("Retention deleted %s and dropped %d retired generation(s)", deleted, dropped);
            }
            return deleted;
        });
    }
}
