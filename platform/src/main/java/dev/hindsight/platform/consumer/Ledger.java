package dev.hindsight.platform.consumer;

import dev.hindsight.events.EventHeader;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;

/**
 * The idempotent-consumer ledger for a whole batch: claims every event id of the batch in one statement, in the same
 * transaction as the change, and keeps only the events claimed for the first time. A redelivered event, or the same
 * event twice in one batch (a producer's retry), is applied once. Ids are claimed in id order, so two transactions
 * claiming overlapping sets (a request applying its own events while the consumer applies the same events in
 * partition order) wait for each other in one order and cannot deadlock on the ledger.
 */
public final class Ledger {

    private static final String CLAIM = """
            INSERT INTO %s (consumer, event_id, tenant_id)
            SELECT $1, e.id, e.tenant FROM unnest($2::uuid[], $3::text[]) AS e(id, tenant)
            ORDER BY e.id
            ON CONFLICT DO NOTHING
            RETURNING event_id""";

    private Ledger() {
    }

    /**
     * @param table    the ledger table, e.g. {@code processed_event} (from this jar's {@code db/platform} migration)
     * @param consumer the consumer's name in the ledger (and in receipts)
     * @return the events of {@code events} not seen before by {@code consumer}, in their order
     */
    public static <T> Uni<List<T>> claim(SqlClient tx, String table, String consumer, List<T> events,
            Function<T, EventHeader> header) {
        UUID[] ids = new UUID[events.size()];
        String[] tenants = new String[events.size()];
        for (int i = 0; i < events.size(); i++) {
            EventHeader h = header.apply(events.get(i));
            ids[i] = h.getEventId();
            tenants[i] = h.getTenantId();
        }
        return tx.preparedQuery(CLAIM.formatted(table)).execute(Tuple.of(consumer, ids, tenants)).map(claimed -> {
            Set<UUID> fresh = new HashSet<>(claimed.size() * 2);
            for (Row row : claimed) {
                fresh.add(row.getUUID(0));
            }
            List<T> firstSeen = new ArrayList<>(fresh.size());
            for (T event : events) {
                if (fresh.remove(header.apply(event).getEventId())) {
                    firstSeen.add(event);
                }
            }
            return firstSeen;
        });
    }
}
