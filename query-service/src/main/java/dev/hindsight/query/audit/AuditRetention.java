package dev.hindsight.query.audit;

import dev.hindsight.query.readmodel.Expiry;
import dev.hindsight.query.readmodel.ReadModel;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlClient;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.Map;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The decision audit's retention (design.md § Retention by topic and read model): decision sets and behaviour signals
 * 90 days by default, shadow evaluations and decision comparisons 365 days. Age is event time ({@code occurred_at}),
 * so a rebuild that projects old events again has them removed by the next run.
 */
@ApplicationScoped
class AuditRetention implements Expiry {

    private static final String DECISION_SETS = "DELETE FROM {rm}.decision_set /* every tenant: retention */ "
            + "WHERE occurred_at < now() - make_interval(secs => $1)";
    private static final String SIGNALS = "DELETE FROM {rm}.behavior_signal /* every tenant: retention */ "
            + "WHERE occurred_at < now() - make_interval(secs => $1)";
    private static final String EVALUATIONS = "DELETE FROM {rm}.shadow_evaluation /* every tenant: retention */ "
            + "WHERE occurred_at < now() - make_interval(secs => $1)";
    private static final String COMPARISONS = "DELETE FROM {rm}.decision_comparison /* every tenant: retention */ "
            + "WHERE occurred_at < now() - make_interval(secs => $1)";

    private final Duration decisionSets;
    private final Duration signals;
    private final Duration evaluations;
    private final Duration comparisons;

    AuditRetention(
            @ConfigProperty(name = "hindsight.query.retention.decision-sets", defaultValue = "90d") Duration decisionSets,
            @ConfigProperty(name = "hindsight.query.retention.behavior-signals", defaultValue = "90d") Duration signals,
            @ConfigProperty(name = "hindsight.query.retention.evaluations", defaultValue = "365d") Duration evaluations,
            @ConfigProperty(name = "hindsight.query.retention.comparisons", defaultValue = "365d")
            Duration comparisons) {
        this.decisionSets = decisionSets;
        this.signals = signals;
        this.evaluations = evaluations;
        this.comparisons = comparisons;
    }

    @Override
    public Uni<Void> expire(SqlClient client, ReadModel model, Map<String, Long> deleted) {
        return Expiry.delete(client, model, "decision_set", DECISION_SETS, decisionSets, deleted)
                .chain(() -> Expiry.delete(client, model, "behavior_signal", SIGNALS, signals, deleted))
                .chain(() -> Expiry.delete(client, model, "shadow_evaluation", EVALUATIONS, evaluations, deleted))
                .chain(() -> Expiry.delete(client, model, "decision_comparison", COMPARISONS, comparisons, deleted));
    }
}
