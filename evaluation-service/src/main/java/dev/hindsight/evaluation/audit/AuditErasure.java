package dev.hindsight.evaluation.audit;

import dev.hindsight.platform.erasure.ErasureLog;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * Erasing decision sets and the signals on their messages (ADR 0028): those of the erased messages and sessions, or
 * every one of a tenant. A set that is being scored is locked by {@link ShadowEvaluator}: its deletion waits for the
 * scoring to commit, whose events the erasure then deletes from the outbox.
 */
@ApplicationScoped
public class AuditErasure {

    // A session's sets go with it whether or not the erasure named their messages: the read model that resolved the
    // erasure may not have had them yet.
    private static final String SETS = """
            DELETE FROM decision_set_state WHERE tenant_id = $1 AND (session_id = ANY($2) OR message_id = ANY($3))
            RETURNING message_id""";
    // Signals carry no session: they go by message, the named ones and those of the sets just deleted.
    private static final String SIGNALS = "DELETE FROM behavior_signal WHERE tenant_id = $1 AND message_id = ANY($2)";
    private static final String SETS_OF_TENANT = "DELETE FROM decision_set_state WHERE tenant_id = $1";
    private static final String SIGNALS_OF_TENANT = "DELETE FROM behavior_signal WHERE tenant_id = $1";

    /**
     * Deletes, on {@code tx}, the decision sets and signals of {@code erasure}, adding the rows deleted per table;
     * completes with the messages erased (the record keys of their evaluations), none when the tenant is.
     */
    public Uni<Set<String>> erase(SqlClient tx, ErasureLog.Erasure erasure, Map<String, Long> erased) {
        erased.putIfAbsent("decision_set_state", 0L);
        erased.putIfAbsent("behavior_signal", 0L);
        String tenant = erasure.tenant().value();
        if (erasure.tenantWide()) {
            return tx.preparedQuery(SETS_OF_TENANT).execute(Tuple.of(tenant))
                    .invoke(rows -> erased.merge("decision_set_state", (long) rows.rowCount(), Long::sum))
                    .chain(() -> tx.preparedQuery(SIGNALS_OF_TENANT).execute(Tuple.of(tenant)))
                    .invoke(rows -> erased.merge("behavior_signal", (long) rows.rowCount(), Long::sum))
                    .map(rows -> Set.of());
        }
        Set<String> messages = new LinkedHashSet<>(erasure.messageIds());
        if (erasure.sessionIds().isEmpty() && messages.isEmpty()) {
            return Uni.createFrom().item(Set.of());
        }
        return tx.preparedQuery(SETS).execute(Tuple.of(tenant, erasure.sessionIds().toArray(String[]::new),
                        messages.toArray(String[]::new)))
                .invoke(rows -> {
                    erased.merge("decision_set_state", (long) rows.rowCount(), Long::sum);
                    for (Row row : rows) {
                        messages.add(row.getString("message_id"));
                    }
                })
                .chain(() -> messages.isEmpty() ? Uni.createFrom().item(0)
                        : tx.preparedQuery(SIGNALS).execute(Tuple.of(tenant, messages.toArray(String[]::new)))
                                .map(rows -> rows.rowCount()))
                .invoke(n -> erased.merge("behavior_signal", (long) n, Long::sum))
                .map(n -> messages);
    }
}
