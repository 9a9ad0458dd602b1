package dev.hindsight.query.admin;

import dev.hindsight.query.readmodel.Generations;
import dev.hindsight.query.readmodel.ReadModel;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Retention per event type, applied to the read models by a scheduled job
 * (design.md § Retention by topic and read model: decision sets and behaviour signals 90 days by default; shadow
 * evaluations and decision comparisons 365 days; a memory's individual signals 90 days, while its totals keep counting
 * them). Age is event time ({@code occurred_at}), so a rebuild that projects old events again has them removed by the
 * next run. The same job drops retired read-model generations after their grace period. Kafka keeps the source events:
 * retention here bounds what dashboards show and what the database holds, not the history.
 */
@ApplicationScoped
public class Retention {

    private static final Logger LOG = Logger.getLogger(Retention.class);

    private final Pool pool;
    private final Generations generations;
    private final Duration decisionSets;
    private final Duration signals;
    private final Duration evaluations;
    private final Duration comparisons;
    private final Duration memorySignals;
    private final Duration interval;
    private final Duration retiredGrace;

    public Retention(Pool pool, Generations generations,
            @ConfigProperty(name = "hindsight.query.retention.decision-sets", defaultValue = "90d") Duration decisionSets,
            @ConfigProperty(name = "hindsight.query.retention.behavior-signals", defaultValue = "90d") Duration signals,
            @ConfigProperty(name = "hindsight.query.retention.evaluations", defaultValue = "365d") Duration evaluations,
            @ConfigProperty(name = "hindsight.query.retention.comparisons", defaultValue = "365d") Duration comparisons,
            @ConfigProperty(name = "hindsight.query.retention.memory-signals", defaultValue = "90d")
            Duration memorySignals,
            @ConfigProperty(name = "hindsight.query.retention.interval", defaultValue = "1h") Duration interval,
            @ConfigProperty(name = "hindsight.query.retired-generation-grace", defaultValue = "10m")
            Duration retiredGrace) {
        this.pool = pool;
        this.generations = generations;
        this.decisionSets = decisionSets;
        this.signals = signals;
        this.evaluations = evaluations;
        this.comparisons = comparisons;
        this.memorySignals = memorySignals;
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
        Map<String, Long> deleted = new LinkedHashMap<>();
        deleted.put("decision_set", 0L);
        deleted.put("behavior_signal", 0L);
        deleted.put("shadow_evaluation", 0L);
        deleted.put("decision_comparison", 0L);
        deleted.put("memory_signal", 0L);
        return generations.writable(pool).chain(models -> {
            Uni<Void> chain = Uni.createFrom().voidItem();
            for (ReadModel model : models) {
                chain = chain.chain(() -> delete(model, "decision_set", decisionSets, deleted))
                        .chain(() -> delete(model, "behavior_signal", signals, deleted))
                        .chain(() -> delete(model, "shadow_evaluation", evaluations, deleted))
                        .chain(() -> delete(model, "decision_comparison", comparisons, deleted))
                        .chain(() -> delete(model, "memory_signal", memorySignals, deleted));
            }
            return chain;
        }).chain(() -> generations.dropRetired(retiredGrace)).map(dropped -> {
            if (deleted.values().stream().anyMatch(n -> n > 0) || dropped > 0) {
                LOG.infof("Retention deleted %s and dropped %d retired generation(s)", deleted, dropped);
            }
            return deleted;
        });
    }

    private Uni<Void> delete(ReadModel model, String table, Duration keep, Map<String, Long> deleted) {
        return pool.preparedQuery(model.sql("DELETE FROM {rm}." + table
                        + " WHERE occurred_at < now() - make_interval(secs => $1)"))
                .execute(Tuple.of((double) keep.toSeconds()))
                .invoke(rows -> deleted.merge(table, (long) rows.rowCount(), Long::sum))
                .replaceWithVoid();
    }
}
