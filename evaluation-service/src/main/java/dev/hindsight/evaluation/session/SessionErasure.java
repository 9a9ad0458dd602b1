package dev.hindsight.evaluation.session;

import dev.hindsight.platform.erasure.ErasureLog;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Map;

/**
 * Erasing sessions (ADR 0028): what summaries and the judge kept of them, their messages, positions and trace steps,
 * all keyed by session; or every session of a tenant.
 */
@ApplicationScoped
public class SessionErasure {

    /** One table's two deletes: all the rows of a tenant ({@code $1}), or those of its sessions ({@code $2}). */
    private record Table(String name, String allRows, String bySessions) {
    }

    // Spelled out rather than built from the table's name, so that the house rules read every statement whole.
    private static final List<Table> TABLES = List.of(
            new Table("session_message", "DELETE FROM session_message WHERE tenant_id = $1",
                    "DELETE FROM session_message WHERE tenant_id = $1 AND session_id = ANY($2)"),
            new Table("session_action", "DELETE FROM session_action WHERE tenant_id = $1",
                    "DELETE FROM session_action WHERE tenant_id = $1 AND session_id = ANY($2)"),
            new Table("session_step", "DELETE FROM session_step WHERE tenant_id = $1",
                    "DELETE FROM session_step WHERE tenant_id = $1 AND session_id = ANY($2)"),
            new Table("session_state", "DELETE FROM session_state WHERE tenant_id = $1",
                    "DELETE FROM session_state WHERE tenant_id = $1 AND session_id = ANY($2)"));

    /** Deletes, on {@code tx}, this package's rows of {@code erasure}, adding the rows deleted per table. */
    public Uni<Void> erase(SqlClient tx, ErasureLog.Erasure erasure, Map<String, Long> erased) {
        Uni<Void> chain = Uni.createFrom().voidItem();
        for (Table table : TABLES) {
            erased.putIfAbsent(table.name(), 0L);
            if (!erasure.tenantWide() && erasure.sessionIds().isEmpty()) {
                continue;
            }
            chain = chain.chain(() -> (erasure.tenantWide()
                    ? tx.preparedQuery(table.allRows()).execute(Tuple.of(erasure.tenant().value()))
                    : tx.preparedQuery(table.bySessions()).execute(Tuple.of(erasure.tenant().value(),
                            erasure.sessionIds().toArray(String[]::new))))
                    .invoke(rows -> erased.merge(table.name(), (long) rows.rowCount(), Long::sum))
                    .replaceWithVoid());
        }
        return chain;
    }
}
