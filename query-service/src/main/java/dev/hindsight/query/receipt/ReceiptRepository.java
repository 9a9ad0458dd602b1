package dev.hindsight.query.receipt;

import dev.hindsight.platform.tenant.TenantId;
import dev.hindsight.query.readmodel.Generations;
import dev.hindsight.query.readmodel.ReadModelProjection;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/** Which projections of the current read-model generation have applied an event (their ledger rows). */
@ApplicationScoped
class ReceiptRepository {

    // One primary-key probe per projection (consumer, event_id); the ledger has no other index, which keeps the
    // projection's insert into it cheap.
    private static final String FIND = "SELECT consumer, processed_at FROM {rm}.processed_event "
            + "WHERE consumer = ANY($3) AND event_id = $2 AND tenant_id = $1 ORDER BY consumer";

    private final Pool pool;
    private final Generations generations;
    private final String[] consumers;

    public ReceiptRepository(Pool pool, Generations generations, @Any Instance<ReadModelProjection<?>> projections) {
        this.pool = pool;
        this.generations = generations;
        this.consumers = projections.stream().map(ReadModelProjection::consumer).sorted().toArray(String[]::new);
    }

    /** The projections that applied {@code eventId} of {@code tenantId}, by name; none while it is pending. */
    public Uni<List<ReceiptResource.Projection>> appliedBy(TenantId tenant, UUID eventId) {
        return generations.current().chain(rm -> pool.preparedQuery(rm.sql(FIND))
                .execute(Tuple.of(tenant.value(), eventId, consumers))).map(rows -> {
                    List<ReceiptResource.Projection> projections = new ArrayList<>();
                    for (Row row : rows) {
                        projections.add(new ReceiptResource.Projection(row.getString("consumer"),
                                row.getOffsetDateTime("processed_at")));
                    }
                    return projections;
                });
    }
}
