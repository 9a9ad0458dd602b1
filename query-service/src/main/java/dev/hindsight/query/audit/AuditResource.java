package dev.hindsight.query.audit;

import dev.hindsight.platform.auth.Scopes;
import dev.hindsight.platform.auth.TenantContext;
import dev.hindsight.platform.problem.Problem;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonObject;
import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** The audit queries of design.md § Queries and leaderboard over HTTP, read by {@link AuditQueries}. */
@Path("/v1/decision-sets")
@Tag(name = "Audit")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Scopes.READ)
class AuditResource {

    private final AuditQueries audit;
    private final TenantContext tenant;

    public AuditResource(AuditQueries audit, TenantContext tenant) {
        this.audit = audit;
        this.tenant = tenant;
    }

    @GET
    @Operation(operationId = "listDecisionSets",
            summary = "Decision sets, newest first", description = "Filters, all optional: session_id, "
            + "has_shadow (true: only sets with shadow decisions; false: only without), limit 1-1000 (default 100).")
    @APIResponse(responseCode = "200", description = "The decision sets, newest first",
            content = @Content(schema = @Schema(implementation = AuditShapes.DecisionSets.class)))
    @APIResponse(responseCode = "400", description = "Invalid parameter",
            content = @Content(mediaType = Problem.MEDIA_TYPE))
    @Parameter(name = "has_shadow", in = ParameterIn.QUERY, schema = @Schema(type = SchemaType.BOOLEAN))
    @Parameter(name = "limit", in = ParameterIn.QUERY,
            schema = @Schema(type = SchemaType.INTEGER, minimum = "1", maximum = "" + AuditQueries.MAX_LIMIT,
                    defaultValue = "" + AuditQueries.DEFAULT_LIMIT))
    public Uni<JsonObject> list(@QueryParam("session_id") String sessionId, @QueryParam("has_shadow") String hasShadow,
            @QueryParam("limit") String limit) {
        return audit.list(tenant.tenant(), sessionId, hasShadow, limit);
    }

    @GET
    @Path("/{decisionSetId}")
    @Operation(operationId = "getDecisionSet",
            summary = "The complete picture of a decision set", description = "The decision set, "
            + "the behaviour signals on its message, its shadow evaluations and decision comparisons "
            + "(evaluations and comparisons are filled by evaluation-service's events).")
    @APIResponse(responseCode = "200", description = "The decision set, its signals, evaluations and comparisons",
            content = @Content(schema = @Schema(implementation = AuditShapes.DecisionSetPicture.class)))
    @APIResponse(responseCode = "404", description = "No such decision set for this tenant",
            content = @Content(mediaType = Problem.MEDIA_TYPE))
    public Uni<JsonObject> get(@PathParam("decisionSetId") @Size(max = 128) String decisionSetId) {
        return audit.get(tenant.tenant(), decisionSetId);
    }

    @GET
    @Path("/{decisionSetId}/evaluations")
    @Operation(operationId = "listShadowEvaluations",
            summary = "Shadow evaluations of a decision set", description = "Every revision "
            + "of its SHADOW_EVALUATION_COMPLETED, oldest first (a late signal adds a revision; the last one is the "
            + "current score).")
    @APIResponse(responseCode = "200", description = "Every revision, oldest first",
            content = @Content(schema = @Schema(implementation = AuditShapes.Evaluations.class)))
    @APIResponse(responseCode = "404", description = "No such decision set for this tenant",
            content = @Content(mediaType = Problem.MEDIA_TYPE))
    public Uni<JsonObject> evaluations(@PathParam("decisionSetId") @Size(max = 128) String decisionSetId) {
        return audit.evaluations(tenant.tenant(), decisionSetId);
    }

    /**
     * {@code GET /v1/messages/{message_id}/signals}: the signals on a message (design.md § Queries and leaderboard).
     */
    @Path("/v1/messages")
    @Tag(name = "Audit")
    @Produces(MediaType.APPLICATION_JSON)
    @RolesAllowed(Scopes.READ)
    public static class MessageSignals {

        private final AuditQueries audit;
        private final TenantContext tenant;

        public MessageSignals(AuditQueries audit, TenantContext tenant) {
            this.audit = audit;
            this.tenant = tenant;
        }

        @GET
        @Path("/{messageId}/signals")
        @Operation(operationId = "listMessageSignals", summary = "Behaviour signals on a message, oldest first")
        @APIResponse(responseCode = "200", description = "The signals, oldest first (none: an empty list)",
                content = @Content(schema = @Schema(implementation = AuditShapes.Signals.class)))
        public Uni<JsonObject> signals(@PathParam("messageId") @Size(max = 128) String messageId) {
            return audit.signals(tenant.tenant(), messageId);
        }
    }
}
