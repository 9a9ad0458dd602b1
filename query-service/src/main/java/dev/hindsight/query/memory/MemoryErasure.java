package dev.hindsight.query.memory;

import dev.hindsight.query.readmodel.Erasable;
import dev.hindsight.query.readmodel.ReadModel;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlClient;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;

/**
 * Erasing from the memories' read model: a whole tenant's memories; for sessions, the signals they gave and the merges
 * they made. Memories written by erased sessions leave through memory-service, which decides which of them came from
 * those sessions and publishes their deletion, or restates those that survive (ADR 0028); this projection applies
 * those events as usual.
 */
@ApplicationScoped
class MemoryErasure implements Erasable {

    private static final String[] TABLES = {"memory_vector", "memory_signal", "memory_merge",
        "memory_project_weights", "memory_project_purge", "memory"};

    @Override
    public Uni<Void> erase(SqlClient tx, ReadModel model, Scope scope, Map<String, Long> erased) {
        if (!scope.tenantWide()) {
            return Erasable.delete(tx, model, scope, "memory_signal", null,
                    "DELETE FROM {rm}.memory_signal WHERE tenant_id = $1 AND session_id = ANY($2)", scope.sessionIds(),
                    erased).chain(() -> Erasable.delete(tx, model, scope, "memory_merge", null,
                    "DELETE FROM {rm}.memory_merge WHERE tenant_id = $1 AND merged_session_id = ANY($2)",
                    scope.sessionIds(), erased));
        }
        Uni<Void> chain = Uni.createFrom().voidItem();
        for (String table : TABLES) {
            chain = chain.chain(() -> Erasable.delete(tx, model, scope, table,
                    "DELETE FROM {rm}." + table + " WHERE tenant_id = $1", null, java.util.List.of(), erased));
        }
        return chain;
    }
}
