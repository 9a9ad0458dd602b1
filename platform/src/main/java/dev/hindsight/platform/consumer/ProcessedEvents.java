package dev.hindsight.platform.consumer;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import java.util.UUID;

/**
 * The idempotent-consumer ledger (Debezium outbox {@code messagelog} shape): a consumer claims an event id in the same
 * database transaction as the change it makes, so a redelivered event finds its id taken and changes nothing.
 * Table {@code processed_event} comes from this jar's migration {@code db/platform}.
 */
public final class ProcessedEvents {

    private static final String CLAIM = "INSERT INTO processed_event (consumer, event_id, tenant_id) "
            + "VALUES ($1, $2, $3) ON CONFLICT DO NOTHING";

    private ProcessedEvents() {
    }

    /**
     * Records that {@code consumer} handles {@code eventId}; true when this is the first time, false for a
     * redelivery. Call it on the transaction's connection, before the change.
     */
    public static Uni<Boolean> claim(SqlClient transaction, String consumer, UUID eventId, String tenant) {
        return transaction.preparedQuery(CLAIM).execute(Tuple.of(consumer, eventId, tenant))
                .map(rows -> rows.rowCount() == 1);
    }
}
