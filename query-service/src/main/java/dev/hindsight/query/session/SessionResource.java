package dev.hindsight.query.session;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hindsight.platform.auth.Scopes;
import dev.hindsight.platform.auth.TenantContext;
import dev.hindsight.platform.problem.Problem;
import dev.hindsight.platform.problem.ProblemException;
import dev.hindsight.platform.tenant.TenantId;
import dev.hindsight.query.readmodel.Generations;
import dev.hindsight.query.readmodel.ReadCache;
import dev.hindsight.query.readmodel.Rendered;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Request;
import jakarta.ws.rs.core.Response;
import java.util.Set;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * Sessions of the caller's tenant; another tenant's session does not exist here (404). A session is rendered once
 * and kept until the projection announces a change to it ({@link ReadCache}); every answer carries an ETag, and
 * {@code If-None-Match} with it is answered 304 while the session is unchanged.
 */
@Path("/v1/sessions")
@Tag(name = "Sessions")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Scopes.READ)
class SessionResource {

    private final SessionRepository sessions;
    private final Generations generations;
    private final TenantContext tenant;
    private final ReadCache cache;
    private final ObjectMapper json;

    public SessionResource(SessionRepository sessions, Generations generations, TenantContext tenant,
            ReadCache cache, ObjectMapper json) {
        this.sessions = sessions;
        this.generations = generations;
        this.tenant = tenant;
        this.cache = cache;
        this.json = json;
    }

    @GET
    @Operation(operationId = "listSessions",
            summary = "List sessions, newest first", description = "Filters: kind (trading, chat, debug), model, "
            + "outcome (success, failure, unknown), qa_status (pending, completed, failed), label (key=value, "
            + "exactly), from / to (date or ISO-8601 timestamp, on the session's start). Pass next_cursor back as "
            + "cursor for the next page; limit 1-200, default 50.")
    @APIResponse(responseCode = "200", description = "A page of sessions")
    @APIResponse(responseCode = "400", description = "Invalid filter, limit or cursor",
            content = @Content(mediaType = Problem.MEDIA_TYPE))
    @Parameter(name = "kind", in = ParameterIn.QUERY,
            schema = @Schema(type = SchemaType.STRING, enumeration = {"trading", "chat", "debug"}))
    @Parameter(name = "outcome", in = ParameterIn.QUERY,
            schema = @Schema(type = SchemaType.STRING, enumeration = {"success", "failure", "unknown"}))
    @Parameter(name = "qa_status", in = ParameterIn.QUERY,
            schema = @Schema(type = SchemaType.STRING, enumeration = {"pending", "completed", "failed"}))
    @Parameter(name = "limit", in = ParameterIn.QUERY,
            schema = @Schema(type = SchemaType.INTEGER, minimum = "1", maximum = "" + SessionListing.MAX_LIMIT,
                    defaultValue = "" + SessionListing.DEFAULT_LIMIT))
    public Uni<SessionListing.Page> list(@QueryParam("kind") String kind, @QueryParam("model") String model,
            @QueryParam("outcome") String outcome, @QueryParam("qa_status") String qaStatus,
            @QueryParam("label") String label, @QueryParam("from") String from, @QueryParam("to") String to,
            @QueryParam("cursor") String cursor, @QueryParam("limit") String limit) {
        return sessions.list(tenant.tenant(), SessionListing.query(
                new SessionListing.Filters(kind, model, outcome, qaStatus, label, from, to), cursor, limit));
    }

    @GET
    @Path("/{sessionId}")
    @Operation(operationId = "getSession",
            summary = "A session with its messages in order and each message's thinking steps in exact order, "
            + "plus positions, trace activities, summaries and QA results")
    @APIResponse(responseCode = "200", description = "The session",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = SessionView.class)),
            headers = @Header(name = "ETag", schema = @Schema(type = SchemaType.STRING),
                    description = "Send it back as If-None-Match to get 304 while unchanged"))
    @APIResponse(responseCode = "304", description = "Unchanged since the ETag given in If-None-Match")
    @APIResponse(responseCode = "404", description = "No such session for this tenant",
            content = @Content(mediaType = Problem.MEDIA_TYPE))
    @Parameter(name = "If-None-Match", in = ParameterIn.HEADER, schema = @Schema(type = SchemaType.STRING),
            description = "An ETag this endpoint answered with: 304 while the answer is unchanged")
    public Uni<Response> get(@PathParam("sessionId") @Size(max = 128) String sessionId, @Context Request request) {
        TenantId tenantId = tenant.tenant();
        return generations.current().chain(rm -> cache.session(tenantId, sessionId, rm.generation(),
                        () -> sessions.find(rm, tenantId, sessionId).map(found -> render(found.orElseThrow(
                                () -> ProblemException.notFound("No session " + sessionId)), rm.generation()))))
                .map(answer -> answer.respond(request));
    }

    private Rendered render(SessionView view, int generation) {
        try {
            return Rendered.of(json.writeValueAsBytes(view), generation, Set.of(view.sessionId()));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("Cannot write session " + view.sessionId(), e);
        }
    }
}
