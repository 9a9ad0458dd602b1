package dev.hindsight.query.audit;

import dev.hindsight.query.readmodel.Erasable;
import dev.hindsight.query.readmodel.ReadModel;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlClient;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;

/**
 * Erasing sessions from the decision audit: the decision sets and signals on their messages, and the evaluations and
 * comparisons of those decision sets (all keyed by message id).
 */
@ApplicationScoped
class AuditReadModelErasure implements Erasable {

    @Override
    public Uni<Void> erase(SqlClient tx, ReadModel model, Scope scope, Map<String, Long> erased) {
        Uni<Void> chain = Uni.createFrom().voidItem();
        for (String table : new String[] {"decision_comparison", "shadow_evaluation", "behavior_signal",
                "decision_set"}) {
            chain = chain.chain(() -> Erasable.delete(tx, model, scope, table,
                    "DELETE FROM {rm}." + table + " WHERE tenant_id = $1",
                    "DELETE FROM {rm}." + table + " WHERE tenant_id = $1 AND message_id = ANY($2)",
                    scope.messageIds(), erased));
        }
        return chain;
    }
}
