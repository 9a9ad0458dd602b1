package dev.hindsight.query.receipt;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.hindsight.platform.auth.Scopes;
import dev.hindsight.platform.auth.TenantContext;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.time.OffsetDateTime;
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
class ReceiptResource {

    /** One read model that has applied the event. */
    public record Projection(String projection, OffsetDateTime projectedAt) {
    }

    /** The receipt's state. */
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    public record ReceiptStatus(UUID eventId, String status, List<Projection> projections) {
    }

    private final ReceiptRepository receipts;
    private final TenantContext tenant;

    public ReceiptResource(ReceiptRepository receipts, TenantContext tenant) {
        this.receipts = receipts;
        this.tenant = tenant;
    }

    @GET
    @Path("/{eventId}")
    @Operation(operationId = "getReceipt",
            summary = "Has this event been projected yet?", description = "status is projected (with the read "
            + "models that applied it) or pending.")
    public Uni<ReceiptStatus> get(@PathParam("eventId") UUID eventId) {
        return receipts.appliedBy(tenant.tenant(), eventId).map(projections -> new ReceiptStatus(eventId,
                projections.isEmpty() ? "pending" : "projected", projections));
    }
}
