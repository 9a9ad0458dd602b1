package dev.hindsight.query.session;

import dev.hindsight.platform.auth.Scopes;
import dev.hindsight.platform.auth.TenantContext;
import dev.hindsight.platform.problem.Problem;
import dev.hindsight.platform.problem.ProblemException;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** Sessions of the caller's tenant; another tenant's session does not exist here (404). */
@Path("/v1/sessions")
@Tag(name = "Sessions")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Scopes.READ)
public class SessionResource {

    private final SessionRepository sessions;
    private final TenantContext tenant;

    public SessionResource(SessionRepository sessions, TenantContext tenant) {
        this.sessions = sessions;
        this.tenant = tenant;
    }

    @GET
    @Path("/{sessionId}")
    @Operation(summary = "A session with its messages in order and each message's thinking steps in exact order")
    @APIResponse(responseCode = "200", description = "The session")
    @APIResponse(responseCode = "404", description = "No such session for this tenant",
            content = @Content(mediaType = Problem.MEDIA_TYPE))
    public Uni<SessionView> get(@PathParam("sessionId") @Size(max = 128) String sessionId) {
        return sessions.find(tenant.tenant(), sessionId)
                .map(found -> found.orElseThrow(() -> ProblemException.notFound("No session " + sessionId)));
    }
}
