package dev.hindsight.query.readmodel;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import java.time.Duration;
import java.util.Map;

/**
 * A feature's retention: what it deletes from its own tables when their rows outlive their period. {@link Retention}
 * runs every feature's expiry over every generation being read or written; each table is deleted from by its owner
 * only.
 */
public interface Expiry {

    /** Deletes the expired rows of this feature's tables in {@code model}, adding the rows deleted per table. */
    Uni<Void> expire(SqlClient client, ReadModel model, Map<String, Long> deleted);

    /**
     * Runs {@code statement} (a {@code DELETE} whose {@code $1} is the period in seconds) in {@code model}, counting
     * the rows it deleted under {@code table}.
     */
    static Uni<Void> delete(SqlClient client, ReadModel model, String table, String statement, Duration keep,
            Map<String, Long> deleted) {
        deleted.putIfAbsent(table, 0L);
        return client.preparedQuery(model.sql(statement)).execute(Tuple.of((double) keep.toSeconds()))
                .invoke(rows -> deleted.merge(table, (long) rows.rowCount(), Long::sum))
                .replaceWithVoid();
    }
}
