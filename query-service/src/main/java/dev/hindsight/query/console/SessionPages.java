package dev.hindsight.query.console;

import dev.hindsight.platform.auth.Scopes;
import dev.hindsight.platform.problem.ProblemException;
import dev.hindsight.query.session.SessionListing;
import dev.hindsight.query.session.SessionRepository;
import dev.hindsight.query.session.SessionView;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.PermitAll;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.eclipse.microprofile.openapi.annotations.Operation;

/**
 * The sessions list and a session's page, read through the same repository as {@code GET /v1/sessions} so that a
 * page and the API cannot disagree. Another tenant's session is the same 404 page as a missing one.
 */
@Path("/ui")
@PermitAll
@Produces(MediaType.TEXT_HTML)
public class SessionPages {

    private final ConsoleAccess access;
    private final SessionRepository sessions;

    public SessionPages(ConsoleAccess access, SessionRepository sessions) {
        this.access = access;
        this.sessions = sessions;
    }

    @GET
    @Path("sessions")
    @Operation(hidden = true)
    public Uni<Response> list(@QueryParam("kind") String kind, @QueryParam("model") String model,
            @QueryParam("outcome") String outcome, @QueryParam("qa_status") String qaStatus,
            @QueryParam("label") String label, @QueryParam("from") String from, @QueryParam("to") String to,
            @QueryParam("cursor") String cursor, @Context UriInfo uri) {
        // An empty form field means "any".
        SessionListing.Filters filters = new SessionListing.Filters(given(kind), given(model), given(outcome),
                given(qaStatus), given(label), given(from), given(to));
        return access.page(uri, Scopes.READ, viewer -> {
            Layout layout = new Layout(viewer, "Sessions");
            SessionListing.Query query;
            try {
                query = SessionListing.query(filters, given(cursor), null);
            } catch (ProblemException invalid) {
                // The form again, with what is wrong said above it.
                String error = invalid.problem().errors().stream().map(e -> e.field() + " " + e.message())
                        .reduce((a, b) -> a + "; " + b).orElse(invalid.problem().detail());
                return Uni.createFrom().item(ConsoleAccess.html(400, Templates.sessions(layout,
                        new SessionsPage(filters, java.util.List.of(), null, error)).render()));
            }
            return sessions.list(viewer.tenant(), query).map(page -> ConsoleAccess.html(200,
                    Templates.sessions(layout, SessionsPage.of(filters, page)).render()));
        });
    }

    @GET
    @Path("sessions/{sessionId}")
    @Operation(hidden = true)
    public Uni<Response> session(@PathParam("sessionId") String sessionId, @Context UriInfo uri) {
        return access.page(uri, Scopes.READ, viewer -> find(viewer, sessionId).map(view -> {
            SessionPage page = SessionPage.of(view, SessionPage.PREVIEW);
            return ConsoleAccess.html(200, Templates.session(new Layout(viewer, title(page)), page).render());
        }));
    }

    /** A debugging trace is a session: the same page, at the URL that names it as a trace. */
    @GET
    @Path("traces/{traceId}")
    @Operation(hidden = true)
    public Uni<Response> trace(@PathParam("traceId") String traceId, @Context UriInfo uri) {
        return session(traceId, uri);
    }

    /** One message whole: where "show all" leads. */
    @GET
    @Path("sessions/{sessionId}/messages/{index}")
    @Operation(hidden = true)
    public Uni<Response> message(@PathParam("sessionId") String sessionId, @PathParam("index") int index,
            @Context UriInfo uri) {
        return access.page(uri, Scopes.READ, viewer -> find(viewer, sessionId).map(view -> {
            SessionView.MessageView found = view.messages().stream().filter(m -> m.messageIndex() == index)
                    .findFirst().orElseThrow(() -> ProblemException.notFound(
                            "Session " + sessionId + " has no message " + index));
            SessionPage page = SessionPage.of(new SessionView(view.sessionId(), view.kind(), view.startedAt(),
                    view.completedAt(), view.outcome(), view.trading(), view.attributes(), view.labels(),
                    view.totalMessages(), view.sessionSummary(), null, null, java.util.List.of(), null, null),
                    SessionPage.PREVIEW);
            SessionPage.Message whole = SessionPage.message(page.href(), found, Integer.MAX_VALUE);
            return ConsoleAccess.html(200, Templates.message(new Layout(viewer, "Message " + index + " of "
                    + title(page)), page, whole).render());
        }));
    }

    private Uni<SessionView> find(Viewer viewer, String sessionId) {
        return sessions.find(viewer.tenant(), sessionId).map(found -> found.orElseThrow(
                () -> ProblemException.notFound("No session " + sessionId)));
    }

    private static String title(SessionPage page) {
        return page.kind() == null ? "Session " + page.id() : page.kind().substring(0, 1).toUpperCase(
                java.util.Locale.ROOT) + page.kind().substring(1) + " session " + page.id();
    }

    private static String given(String value) {
        return value == null || value.isBlank() ? null : value;
    }
}
