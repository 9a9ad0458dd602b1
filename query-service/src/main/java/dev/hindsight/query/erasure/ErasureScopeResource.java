package dev.hindsight.query.erasure;

import dev.hindsight.platform.auth.Scopes;
import dev.hindsight.platform.auth.TenantContext;
import dev.hindsight.platform.problem.Problem;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.Valid;
import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * What an erasure covers, read from the current read model: ingest-service asks before it destroys keys and
 * publishes the erasure (ADR 0028), since only the read model knows whom a session is about, which traces a
 * conversation was assembled from and which messages carry decision sets and signals.
 */
@Path("/v1/erasure-scope")
@Tag(name = "Erasure")
@Consumes(MediaType.APPLICATION_JSON)
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Scopes.ERASE)
class ErasureScopeResource {

    /** Exactly one of: sessions by id, a data subject, the whole tenant. */
    public record Selector(@Size(max = 1000) List<@NotBlank @Size(max = 128) String> sessionIds,
            @Size(min = 1, max = 256) String subject, Boolean tenant) {

        @AssertTrue(message = "needs exactly one of session_ids, subject, tenant: true")
        @com.fasterxml.jackson.annotation.JsonIgnore
        @org.eclipse.microprofile.openapi.annotations.media.Schema(hidden = true)
        boolean isOne() {
            int named = (sessionIds != null ? 1 : 0) + (subject != null ? 1 : 0) + (Boolean.TRUE.equals(tenant) ? 1 : 0);
            return named == 1 && (sessionIds == null || !sessionIds.isEmpty());
        }
    }

    /** The sessions found, their messages' ids (decision sets, signals, evaluations) and their OTLP traces. */
    public record Scope(List<String> sessionIds, List<String> messageIds, List<String> traceIds, long sessions) {
    }

    private final ErasureScopes scopes;
    private final TenantContext tenant;

    ErasureScopeResource(ErasureScopes scopes, TenantContext tenant) {
        this.scopes = scopes;
        this.tenant = tenant;
    }

    @POST
    @Operation(operationId = "resolveErasureScope", summary = "What an erasure would cover",
            description = "The caller's tenant's sessions named by id, or of one data subject, with the ids of their "
                    + "messages' decision sets and signals and of their OpenTelemetry traces; for the whole tenant, "
                    + "how many sessions it has. Asked by ingest-service before it erases (scope erase).")
    @APIResponse(responseCode = "200", description = "The scope (empty lists when nothing matches)")
    @APIResponse(responseCode = "400", description = "Invalid request", content = @Content(mediaType = Problem.MEDIA_TYPE))
    public Uni<Scope> resolve(@Valid @NotNull Selector selector) {
        return scopes.resolve(tenant.tenant(), selector);
    }
}
