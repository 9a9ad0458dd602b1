package dev.hindsight.query.reasoning;

import dev.hindsight.platform.auth.Scopes;
import dev.hindsight.platform.problem.Problem;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Request;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * The endpoint of design.md § The /reasoning query at its own path, {@code GET /reasoning}; the same answer is at
 * {@code /v1/reasoning}.
 */
@Path("/reasoning")
@Tag(name = "Reasoning")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Scopes.READ)
class ReasoningResource {

    private final ReasoningQuery query;

    public ReasoningResource(ReasoningQuery query) {
        this.query = query;
    }

    @GET
    @Operation(operationId = "getReasoningUnversioned",
            summary = "Reasoning logs of trading model-days", description = "Filters job_id, date (YYYY-MM-DD), "
            + "model; include_full_conversation=true adds each session's messages (assistant messages with their "
            + "summary). Pages of at most limit sessions (1 to " + ReasoningQuery.MAX_SESSIONS + ", default "
            + ReasoningQuery.MAX_SESSIONS + "); total counts every matching session, and next_cursor, present when "
            + "more follow, is passed as cursor to get the next page.")
    @APIResponse(responseCode = "200", description = "A page of model-days, with an ETag",
            content = @Content(schema = @Schema(implementation = ReasoningShapes.ReasoningPage.class)))
    @APIResponse(responseCode = "304", description = "Unchanged since the ETag given in If-None-Match")
    @APIResponse(responseCode = "400", description = "Invalid date, limit or cursor",
            content = @Content(mediaType = Problem.MEDIA_TYPE))
    @APIResponse(responseCode = "404", description = "No sessions found matching filters",
            content = @Content(mediaType = Problem.MEDIA_TYPE))
    @Parameter(name = "If-None-Match", in = ParameterIn.HEADER, schema = @Schema(type = SchemaType.STRING),
            description = "An ETag this endpoint answered with: 304 while the answer is unchanged")
    @Parameter(name = "date", in = ParameterIn.QUERY, schema = @Schema(type = SchemaType.STRING, format = "date"))
    @Parameter(name = "include_full_conversation", in = ParameterIn.QUERY, schema = @Schema(type = SchemaType.BOOLEAN))
    @Parameter(name = "limit", in = ParameterIn.QUERY,
            schema = @Schema(type = SchemaType.INTEGER, minimum = "1", maximum = "" + ReasoningQuery.MAX_SESSIONS,
                    defaultValue = "" + ReasoningQuery.MAX_SESSIONS))
    public Uni<Response> get(@QueryParam("job_id") String jobId, @QueryParam("date") String date,
            @QueryParam("model") String model,
            @QueryParam("include_full_conversation") String includeFullConversation,
            @QueryParam("limit") String limit, @QueryParam("cursor") String cursor, @Context Request request) {
        return query.find(ReasoningQuery.Filters.parse(jobId, date, model, includeFullConversation, limit, cursor))
                .map(answer -> answer.respond(request));
    }

    /** {@code GET /v1/reasoning}: the same, under the versioned API. */
    @Path("/v1/reasoning")
    @Tag(name = "Reasoning")
    @Produces(MediaType.APPLICATION_JSON)
    @RolesAllowed(Scopes.READ)
    public static class Versioned {

        private final ReasoningQuery query;

        public Versioned(ReasoningQuery query) {
            this.query = query;
        }

        @GET
        @Operation(operationId = "getReasoning",
                summary = "Reasoning logs of trading model-days (same as GET /reasoning)")
        @APIResponse(responseCode = "200", description = "A page of model-days, with an ETag",
                content = @Content(schema = @Schema(implementation = ReasoningShapes.ReasoningPage.class)))
        @APIResponse(responseCode = "304", description = "Unchanged since the ETag given in If-None-Match")
        @APIResponse(responseCode = "400", description = "Invalid date, limit or cursor",
                content = @Content(mediaType = Problem.MEDIA_TYPE))
        @APIResponse(responseCode = "404", description = "No sessions found matching filters",
                content = @Content(mediaType = Problem.MEDIA_TYPE))
        @Parameter(name = "If-None-Match", in = ParameterIn.HEADER, schema = @Schema(type = SchemaType.STRING),
                description = "An ETag this endpoint answered with: 304 while the answer is unchanged")
        @Parameter(name = "date", in = ParameterIn.QUERY, schema = @Schema(type = SchemaType.STRING, format = "date"))
        @Parameter(name = "include_full_conversation", in = ParameterIn.QUERY,
                schema = @Schema(type = SchemaType.BOOLEAN))
        @Parameter(name = "limit", in = ParameterIn.QUERY,
                schema = @Schema(type = SchemaType.INTEGER, minimum = "1", maximum = "" + ReasoningQuery.MAX_SESSIONS,
                        defaultValue = "" + ReasoningQuery.MAX_SESSIONS))
        public Uni<Response> get(@QueryParam("job_id") String jobId, @QueryParam("date") String date,
                @QueryParam("model") String model,
                @QueryParam("include_full_conversation") String includeFullConversation,
                @QueryParam("limit") String limit, @QueryParam("cursor") String cursor, @Context Request request) {
            return query.find(ReasoningQuery.Filters.parse(jobId, date, model, includeFullConversation, limit,
                    cursor))
                    .map(answer -> answer.respond(request));
        }
    }
}
