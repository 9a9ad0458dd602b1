package dev.hindsight.query.session;

import static dev.hindsight.query.console.ConsoleAccess.given;

import dev.hindsight.platform.auth.Scopes;
import dev.hindsight.platform.problem.ProblemException;
import dev.hindsight.query.console.ConsoleAccess;
import dev.hindsight.query.console.Layout;
import dev.hindsight.query.console.Viewer;
import dev.hindsight.query.readmodel.Change;
import dev.hindsight.query.readmodel.ChangeFeed;
import dev.hindsight.query.readmodel.Generations;
import dev.hindsight.query.readmodel.ReadCache;
import dev.hindsight.query.readmodel.Rendered;
import io.quarkus.qute.CheckedTemplate;
import io.quarkus.qute.TemplateInstance;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import jakarta.annotation.security.PermitAll;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.jboss.resteasy.reactive.RestStreamElementType;

/**
 * The sessions list and a session's page, read through the same repository as {@code GET /v1/sessions} so that a
 * page and the API cannot disagree. Another tenant's session is the same 404 page as a missing one.
 */
@Path("/ui")
@PermitAll
@Produces(MediaType.TEXT_HTML)
class SessionPages {

    private static final Set<String> LIVE_KINDS = Set.of("session", "session_summarized", "trace_judged");
    private static final Duration LIVE_WINDOW = Duration.ofMillis(500);
    private static final int LIVE_MAX_ROWS = 200;
    private static final int LIVE_BUFFER = 10_000;
    /** An event that is not a row (the browser drops events without data, so it says something). */
    static final String HEARTBEAT = "heartbeat";

    private final ConsoleAccess access;
    private final SessionRepository sessions;
    private final ChangeFeed feed;
    private final Generations generations;
    private final ReadCache cache;

    public SessionPages(ConsoleAccess access, SessionRepository sessions, ChangeFeed feed, Generations generations,
            ReadCache cache) {
        this.access = access;
        this.sessions = sessions;
        this.feed = feed;
        this.generations = generations;
        this.cache = cache;
    }

    @GET
    @Path("sessions")
    @Operation(hidden = true)
    public Uni<Response> list(@QueryParam("kind") String kind, @QueryParam("model") String model,
            @QueryParam("outcome") String outcome, @QueryParam("qa_status") String qaStatus,
            @QueryParam("label") String label, @QueryParam("from") String from, @QueryParam("to") String to,
            @QueryParam("cursor") String cursor, @Context UriInfo uri) {
        SessionListing.Filters filters = filters(kind, model, outcome, qaStatus, label, from, to);
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
                        SessionsPage.invalid(filters, error)).render()));
            }
            return sessions.list(viewer.tenant(), query).map(page -> ConsoleAccess.html(200,
                    Templates.sessions(layout, SessionsPage.of(filters, page, given(cursor) == null)).render()));
        });
    }

    @GET
    @Path("sessions/{sessionId}")
    @Operation(hidden = true)
    public Uni<Response> session(@PathParam("sessionId") String sessionId,
            @HeaderParam("Accept-Encoding") String acceptEncoding, @Context UriInfo uri) {
        // Rendered once per tenant (and admin or not: the only thing in the page that depends on the viewer) and kept,
        // compressed too, until the projection announces a change to the session, as its JSON answer is (ADR 0009).
        return access.page(uri, Scopes.READ, viewer -> generations.current().chain(rm -> cache.consoleSession(
                        viewer.tenant(), viewer.admin(), sessionId, rm.generation(),
                        // Building, rendering and compressing a page of hundreds of messages is real CPU work:
                        // done on a worker, so the event loop keeps answering meanwhile.
                        () -> sessions.find(rm, viewer.tenant(), sessionId)
                                .emitOn(Infrastructure.getDefaultWorkerPool())
                                .map(found -> render(viewer, sessionId, found, rm.generation()))))
                .map(rendered -> rendered.respondHtml(acceptEncoding)));
    }

    private static Rendered render(Viewer viewer, String sessionId, Optional<SessionView> found, int generation) {
        SessionPage page = SessionPage.of(found.orElseThrow(() -> ProblemException.notFound("No session " + sessionId)),
                SessionPage.PREVIEW);
        String html = Templates.session(new Layout(viewer, title(page.kind(), page.id())), page).render();
        return Rendered.page(html.getBytes(StandardCharsets.UTF_8), generation, Set.of(sessionId));
    }

    /** A debugging trace is a session: the same page, at the URL that names it as a trace. */
    @GET
    @Path("traces/{traceId}")
    @Operation(hidden = true)
    public Uni<Response> trace(@PathParam("traceId") String traceId,
            @HeaderParam("Accept-Encoding") String acceptEncoding, @Context UriInfo uri) {
        return session(traceId, acceptEncoding, uri);
    }

    /**
     * The rows a live sessions list adds or replaces, as server-sent events whose data is one rendered row: every
     * session of the viewer's tenant that the projection (of any replica) committed and the list's filters let
     * through. Changes are gathered for half a second and read in one query, however many sessions a burst brings.
     */
    @GET
    @Path("live/sessions")
    // Checked before the stream starts: once it has, a refusal could no longer be a status.
    @RolesAllowed(Scopes.READ)
    @Produces(MediaType.SERVER_SENT_EVENTS)
    @RestStreamElementType(MediaType.TEXT_PLAIN)
    @Operation(hidden = true)
    public Multi<String> live(@QueryParam("kind") String kind, @QueryParam("model") String model,
            @QueryParam("outcome") String outcome, @QueryParam("qa_status") String qaStatus,
            @QueryParam("label") String label, @QueryParam("from") String from, @QueryParam("to") String to) {
        SessionListing.Query query = SessionListing.query(filters(kind, model, outcome, qaStatus, label, from, to),
                null, null);
        return access.viewer(Scopes.READ).onItem().transformToMulti(viewer -> {
            Multi<String> rows = feed.changes().onOverflow().buffer(LIVE_BUFFER)
                    .filter(change -> viewer.tenant().equals(change.tenant()) && LIVE_KINDS.contains(change.kind()))
                    .group().intoLists().every(LIVE_WINDOW)
                    .filter(changes -> !changes.isEmpty())
                    .onItem().transformToUniAndConcatenate(changes -> sessions.among(viewer.tenant(), query,
                            changes.stream().map(Change::id).distinct().limit(LIVE_MAX_ROWS).toList()))
                    // Oldest first: each is put at the top of the list, so the newest ends up first.
                    .onItem().transformToIterable(found -> {
                        List<String> rendered = new ArrayList<>(found.size());
                        for (int i = found.size() - 1; i >= 0; i--) {
                            rendered.add(Templates.sessionRow(SessionRow.of(found.get(i))).render()
                                    .replace('\r', ' ').replace('\n', ' '));
                        }
                        return rendered;
                    });
            // A heartbeat at once (the page knows it is listening) and every 15 s (proxies keep an idle stream open).
            Multi<String> heartbeats = Multi.createBy().concatenating().streams(Multi.createFrom().item(HEARTBEAT),
                    Multi.createFrom().ticks().every(Duration.ofSeconds(15)).map(tick -> HEARTBEAT));
            return Multi.createBy().merging().streams(rows, heartbeats);
        });
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
            String href = SessionPage.href(view.sessionId());
            SessionPage.Message whole = SessionPage.message(href, found, Integer.MAX_VALUE,
                    SessionPage.agentNames(view.agents()));
            return ConsoleAccess.html(200, Templates.message(new Layout(viewer, "Message " + index + " of "
                    + title(view.kind(), view.sessionId())), view.sessionId(), href, whole).render());
        }));
    }

    private Uni<SessionView> find(Viewer viewer, String sessionId) {
        return sessions.find(viewer.tenant(), sessionId).map(found -> found.orElseThrow(
                () -> ProblemException.notFound("No session " + sessionId)));
    }

    private static String title(String kind, String sessionId) {
        return kind == null ? "Session " + sessionId
                : kind.substring(0, 1).toUpperCase(Locale.ROOT) + kind.substring(1) + " session " + sessionId;
    }

    /** The list's filters as a form sends them: an empty field means "any". */
    private static SessionListing.Filters filters(String kind, String model, String outcome, String qaStatus,
            String label, String from, String to) {
        return new SessionListing.Filters(given(kind), given(model), given(outcome), given(qaStatus), given(label),
                given(from), given(to));
    }

    /** This page's templates (src/main/resources/templates/console); every expression is checked at build time. */
    @CheckedTemplate(basePath = "console", defaultName = CheckedTemplate.HYPHENATED_ELEMENT_NAME)
    static final class Templates {

        static native TemplateInstance sessions(Layout layout, SessionsPage page);

        static native TemplateInstance sessionRow(SessionRow s);

        static native TemplateInstance session(Layout layout, SessionPage session);

        static native TemplateInstance message(Layout layout, String sessionId, String sessionHref, SessionPage.Message message);

        private Templates() {
        }
    }
}
