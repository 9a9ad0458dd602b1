package dev.hindsight.query.readmodel;

import dev.hindsight.platform.tenant.TenantId;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import java.util.List;
import java.util.Map;

/**
 * A feature's part of an erasure (ADR 0028): what it deletes from its own tables when sessions, their messages and
 * traces, or a whole tenant are erased. The erasure runs every feature's part over every generation that still
 * exists, retired ones included, in one transaction; each table is deleted from by its owner only.
 */
public interface Erasable {

    /** What is erased: the whole tenant, or these sessions, the messages and traces of theirs. */
    record Scope(TenantId tenant, boolean tenantWide, List<String> sessionIds, List<String> messageIds,
            List<String> traceIds) {

        /** {@code $1} the tenant, {@code $2} the ids of a {@code ... = ANY($2)} statement. */
        public Tuple byIds(List<String> ids) {
            return Tuple.of(tenant.value(), ids.toArray(String[]::new));
        }
    }

    /** Deletes this feature's rows of {@code scope} in {@code model}, adding the rows deleted per table. */
    Uni<Void> erase(SqlClient tx, ReadModel model, Scope scope, Map<String, Long> erased);

    /**
     * Deletes from {@code table}: with {@code everyRow} (its {@code $1} the tenant) when the whole tenant is erased,
     * else with {@code byIds} ({@code $1} the tenant, {@code $2} {@code ids}; nothing when there are none), counting
     * the rows deleted under {@code table}.
     */
    static Uni<Void> delete(SqlClient tx, ReadModel model, Scope scope, String table, String everyRow, String byIds,
            List<String> ids, Map<String, Long> erased) {
        erased.putIfAbsent(table, 0L);
        if (!scope.tenantWide() && ids.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return (scope.tenantWide()
                ? tx.preparedQuery(model.sql(everyRow)).execute(Tuple.of(scope.tenant().value()))
                : tx.preparedQuery(model.sql(byIds)).execute(scope.byIds(ids)))
                .invoke(rows -> erased.merge(table, (long) rows.rowCount(), Long::sum))
                .replaceWithVoid();
    }
}
