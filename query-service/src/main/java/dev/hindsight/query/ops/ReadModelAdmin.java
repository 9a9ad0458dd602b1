package dev.hindsight.query.ops;

import dev.hindsight.platform.auth.Scopes;
import dev.hindsight.platform.problem.Problem;
import dev.hindsight.platform.problem.ProblemException;
import dev.hindsight.query.readmodel.Backfill;
import dev.hindsight.query.readmodel.Generations;
import dev.hindsight.query.readmodel.Retention;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * Operators rebuild every read model from the topics without downtime (ADR 0004): a new generation is filled from
 * offset zero next to the current one, which keeps serving readers, and replaces it when it has caught up.
 * Read models hold every tenant's rows, so this needs an operator key with the admin scope.
 */
@Path("/v1/admin/read-models")
@Tag(name = "Operations")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Scopes.ADMIN)
class ReadModelAdmin {

    private final Generations generations;
    private final Backfill backfill;
    private final Retention retention;

    public ReadModelAdmin(Generations generations, Backfill backfill, Retention retention) {
        this.generations = generations;
        this.backfill = backfill;
        this.retention = retention;
    }

    @POST
    @Path("/retention")
    @Operation(operationId = "applyRetention",
            summary = "Apply retention now", description = "What the scheduled job does every "
            + "hindsight.query.retention.interval: deletes rows older than their event type's retention from the "
            + "read models; answers the rows deleted per table.")
    public Uni<java.util.Map<String, Long>> applyRetention() {
        return retention.run();
    }

    @GET
    @Operation(operationId = "listReadModels",
            summary = "Read-model generations", description = "state current (readers use it), building (a "
            + "rebuild filling it: backfill_position against backfill_until) or retired (dropped after a grace period).")
    public Uni<List<Generations.Status>> list() {
        return generations.list();
    }

    @POST
    @Path("/rebuild")
    @Operation(operationId = "rebuildReadModels",
            summary = "Rebuild every read model from offset zero", description = "Answers 202 with the new "
            + "generation; follow it with GET /v1/admin/read-models until it is current.")
    @APIResponse(responseCode = "202", description = "Rebuild started",
            content = @Content(schema = @Schema(implementation = Started.class)))
    @APIResponse(responseCode = "409", description = "A rebuild is already running",
            content = @Content(mediaType = Problem.MEDIA_TYPE))
    public Uni<Response> rebuild() {
        return generations.create("building").map(created -> {
            var model = created.orElseThrow(() -> ProblemException.conflict(
                    "A rebuild is already running; follow it with GET /v1/admin/read-models"));
            backfill.resume();
            return Response.accepted(new Started(model.generation(), "building")).build();
        });
    }

    /** The rebuild's generation. */
    public record Started(int generation, String state) {
    }
}
