package dev.hindsight.query.receipt;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.hindsight.platform.auth.Scopes;
import dev.hindsight.platform.auth.TenantContext;
import dev.hindsight.query.projection.Generations;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.annotation.security.RolesAllowed;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * Whether an event ingest acknowledged has reached the read models yet: the receipt's event id looked up in the
 * current read-model generation's ledger. {@code pending} means not projected (yet); an event of another tenant is always pending
 * here, so a receipt reveals nothing across tenants.
 */
@Path("/v1/receipts")
@Tag(name = "Receipts")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed({Scopes.READ, Scopes.INGEST})
public class ReceiptResource {

    // One primary-key probe per projection (consumer, event_id); the ledger has no other index, which keeps the
    // projection's insert into it cheap (docs/benchmarks.md).
    private static final String FIND = "SELECT consumer, processed_at FROM {rm}.processed_event "
            + "WHERE consumer = ANY($3) AND event_id = $2 AND tenant_id = $1 ORDER BY consumer";

    /** One read model that has applied the event. */
    public record Projection(String projection, OffsetDateTime projectedAt) {
    }

    /** The receipt's state. */
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    public record ReceiptStatus(UUID eventId, String status, List<Projection> projections) {
    }

    private final Pool pool;
    private final Generations generations;
    private final TenantContext tenant;
    private final String[] consumers;

    public ReceiptResource(Pool pool, Generations generations, TenantContext tenant,
            @Any Instance<dev.hindsight.query.projection.Projection<?>> projections) {
        this.pool = pool;
        this.generations = generations;
        this.tenant = tenant;
        this.consumers = projections.stream().map(dev.hindsight.query.projection.Projection::consumer).sorted().toArray(String[]::new);
    }

    @GET
    @Path("/{eventId}")
    @Operation(operationId = "getReceipt",
            summary = "Has this event been projected yet?", description = "status is projected (with the read "
            + "models that applied it) or pending.")
    public Uni<ReceiptStatus> get(@PathParam("eventId") UUID eventId) {
        String tenantId = tenant.tenant();
        return generations.current().chain(rm -> pool.preparedQuery(rm.sql(FIND))
                .execute(Tuple.of(tenantId, eventId, consumers))).map(rows -> {
            List<Projection> projections = new ArrayList<>();
            for (Row row : rows) {
                projections.add(new Projection(row.getString("consumer"), row.getOffsetDateTime("processed_at")));
            }
            return new ReceiptStatus(eventId, projections.isEmpty() ? "pending" : "projected", projections);
        });
    }
}
