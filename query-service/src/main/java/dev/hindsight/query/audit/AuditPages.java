package dev.hindsight.query.audit;

import static dev.hindsight.query.console.ConsoleAccess.given;

import dev.hindsight.platform.auth.Scopes;
import dev.hindsight.query.console.ConsoleAccess;
import dev.hindsight.query.console.Layout;
import io.quarkus.qute.CheckedTemplate;
import io.quarkus.qute.TemplateInstance;
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
 * The audit pages (design.md § The console): decision sets (a set's active and shadow decisions side by side, the
 * behaviour signals on its message, every evaluation revision, the comparisons) and the classifier versions'
 * leaderboard. They read through the JSON API's own queries, as the signed-in viewer's tenant.
 */
@Path("/ui")
@PermitAll
@Produces(MediaType.TEXT_HTML)
class AuditPages {

    private final ConsoleAccess access;
    private final AuditQueries audit;
    private final LeaderboardQuery leaderboard;

    public AuditPages(ConsoleAccess access, AuditQueries audit, LeaderboardQuery leaderboard) {
        this.access = access;
        this.audit = audit;
        this.leaderboard = leaderboard;
    }

    @GET
    @Path("decision-sets")
    @Operation(hidden = true)
    public Uni<Response> decisionSets(@QueryParam("session_id") String sessionId,
            @QueryParam("has_shadow") String hasShadow, @Context UriInfo uri) {
        String session = given(sessionId);
        String shadow = given(hasShadow);
        return access.page(uri, Scopes.READ, viewer -> audit.list(viewer.tenant(), session, shadow, null).map(answer ->
                ConsoleAccess.html(200, Templates.decisionSets(new Layout(viewer, "Decision sets"),
                        DecisionSetPage.list(answer, session, shadow)).render())));
    }

    @GET
    @Path("decision-sets/{id}")
    @Operation(hidden = true)
    public Uni<Response> decisionSet(@PathParam("id") String id, @Context UriInfo uri) {
        return access.page(uri, Scopes.READ, viewer -> audit.get(viewer.tenant(), id).map(answer -> {
            DecisionSetPage page = DecisionSetPage.of(answer);
            return ConsoleAccess.html(200, Templates.decisionSet(new Layout(viewer, "Decision set " + page.id()),
                    page).render());
        }));
    }

    @GET
    @Path("versions")
    @Operation(hidden = true)
    public Uni<Response> versions(@QueryParam("from") String from, @QueryParam("to") String to,
            @Context UriInfo uri) {
        String since = given(from);
        String until = given(to);
        return access.page(uri, Scopes.READ, viewer -> leaderboard.leaderboard(viewer.tenant(), since, until)
                .map(answer -> ConsoleAccess.html(200, Templates.versions(new Layout(viewer, "Classifier versions"),
                        VersionsPage.of(answer, since, until)).render())));
    }

    /** This page's templates (src/main/resources/templates/console); every expression is checked at build time. */
    @CheckedTemplate(basePath = "console", defaultName = CheckedTemplate.HYPHENATED_ELEMENT_NAME)
    static final class Templates {

        static native TemplateInstance decisionSets(Layout layout, DecisionSetPage.ListPage page);

        static native TemplateInstance decisionSet(Layout layout, DecisionSetPage set);

        static native TemplateInstance versions(Layout layout, VersionsPage page);

        private Templates() {
        }
    }
}
