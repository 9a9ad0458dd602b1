package dev.hindsight.query.memory;

import static dev.hindsight.query.console.ConsoleAccess.given;

import dev.hindsight.memorymodel.embedding.NothingToEmbed;
import dev.hindsight.platform.auth.Scopes;
import dev.hindsight.platform.problem.Problem;
import dev.hindsight.platform.problem.ProblemException;
import dev.hindsight.platform.tenant.TenantId;
import dev.hindsight.query.console.ConsoleAccess;
import dev.hindsight.query.console.Layout;
import dev.hindsight.query.console.Text;
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
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.regex.Pattern;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.openapi.annotations.Operation;

/**
 * The memory pages (design.md § The console): a tenant's projects, a project's memories (newest first or by confidence,
 * or a search's answer) and one memory with the evidence behind its confidence. They read query-service's projection of
 * the ReasoningBank; a search here reads only, so looking something up in the console records no usage signal.
 */
@Path("/ui")
@PermitAll
@Produces(MediaType.TEXT_HTML)
class MemoryPages {

    static final int PAGE_SIZE = 50;
    static final int SEARCH_RESULTS = 20;
    /** memory-service's limits: a project id as its API accepts one, a query as long as its search takes. */
    static final Pattern PROJECT = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:@-]{0,127}");
    static final int MAX_QUERY = 4_000;
    private static final int SIGNALS_SHOWN = 50;

    private final ConsoleAccess access;
    private final MemoryQueries memories;
    private final double minConfidence;

    public MemoryPages(ConsoleAccess access, MemoryQueries memories,
            @ConfigProperty(name = "hindsight.memory.search.min-confidence",
                    defaultValue = dev.hindsight.memorymodel.search.SearchRule.DEFAULT_MIN_CONFIDENCE) double minConfidence) {
        this.access = access;
        this.memories = memories;
        this.minConfidence = minConfidence;
    }

    @GET
    @Path("projects")
    @Operation(hidden = true)
    public Uni<Response> projects(@Context UriInfo uri) {
        return access.page(uri, Scopes.READ, viewer -> memories.projects(viewer.tenant()).map(projects ->
                ConsoleAccess.html(200, Templates.projects(new Layout(viewer, "Memories"), projects.stream()
                        .map(p -> new Project(p.id(), MemoryPage.projectHref(p.id()), p.memories(),
                                Text.when(p.latest().atOffset(java.time.ZoneOffset.UTC))))
                        .toList()).render())));
    }

    /** A project in the projects list. */
    public record Project(String id, String href, long memories, String latest) {
    }

    @GET
    @Path("projects/{project}/memories")
    @Operation(hidden = true)
    public Uni<Response> memories(@PathParam("project") String project, @QueryParam("q") String q,
            @QueryParam("order") String order, @QueryParam("after") String after, @QueryParam("page") String page,
            @Context UriInfo uri) {
        return access.page(uri, Scopes.READ, viewer -> {
            String query = given(q);
            String ordering = given(order) == null ? "newest" : order;
            List<Problem.FieldError> errors = new ArrayList<>();
            if (!PROJECT.matcher(project).matches()) {
                throw ProblemException.notFound("No memories in project " + project + " for this tenant");
            }
            if (query != null && query.length() > MAX_QUERY) {
                errors.add(new Problem.FieldError("q", "must be at most " + MAX_QUERY + " characters"));
            } else if (query != null && query.chars().allMatch(c -> c <= ' ')) {
                // As memory-service refuses it: the embedding model has nothing to embed in control characters.
                errors.add(new Problem.FieldError("q", "must contain text, not only spaces or control characters"));
            }
            if (!ordering.equals("newest") && !ordering.equals("confidence")) {
                errors.add(new Problem.FieldError("order", "must be newest or confidence"));
            }
            int pageNumber = 0;
            if (given(page) != null) {
                try {
                    pageNumber = Integer.parseInt(page);
                } catch (NumberFormatException e) {
                    pageNumber = -1;
                }
                if (pageNumber < 0 || pageNumber > 10_000) {
                    errors.add(new Problem.FieldError("page", "must be a whole number from 0 to 10000"));
                }
            }
            if (!errors.isEmpty()) {
                throw ProblemException.badRequest("The memories cannot be listed as asked", errors);
            }
            Layout layout = new Layout(viewer, "Memories of " + project);
            if (query != null) {
                return memories.search(viewer.tenant(), project, query, SEARCH_RESULTS)
                        .onFailure(NothingToEmbed.class).transform(e -> ProblemException.badRequest(
                                "The memories cannot be searched as asked",
                                List.of(new Problem.FieldError("q", e.getMessage()))))
                        .chain(hits -> hits.isEmpty()
                        ? requireProject(viewer.tenant(), project).replaceWith(hits) : Uni.createFrom().item(hits))
                        .map(hits -> ConsoleAccess.html(200, Templates.memories(layout,
                                MemoryPage.search(project, query, hits, minConfidence)).render()));
            }
            Uni<MemoryQueries.Page> read;
            if (ordering.equals("confidence")) {
                read = memories.byConfidence(viewer.tenant(), project, pageNumber, PAGE_SIZE);
            } else {
                try {
                    read = memories.newest(viewer.tenant(), project, given(after), PAGE_SIZE);
                } catch (IllegalArgumentException e) {
                    throw ProblemException.badRequest("The memories cannot be listed as asked",
                            List.of(new Problem.FieldError("after", "is not a cursor this list gave")));
                }
            }
            boolean first = given(after) == null && pageNumber == 0;
            return read.chain(found -> found.memories().isEmpty() && first
                            ? requireProject(viewer.tenant(), project).replaceWith(found) : Uni.createFrom().item(found))
                    .map(found -> ConsoleAccess.html(200, Templates.memories(layout,
                            MemoryPage.list(project, found, ordering)).render()));
        });
    }

    @GET
    @Path("memories/{id}")
    @Operation(hidden = true)
    public Uni<Response> memory(@PathParam("id") String id, @Context UriInfo uri) {
        return access.page(uri, Scopes.READ, viewer -> {
            UUID memoryId;
            try {
                memoryId = UUID.fromString(id);
            } catch (IllegalArgumentException e) {
                throw notFound(id);
            }
            return memories.detail(viewer.tenant(), memoryId, SIGNALS_SHOWN).map(found -> {
                MemoryPage.Detail page = MemoryPage.detail(found.orElseThrow(() -> notFound(id)));
                return ConsoleAccess.html(200, Templates.memory(new Layout(viewer, page.title()), page).render());
            });
        });
    }

    /** A project the tenant has no memory in (or another tenant's) is not found, as in memory-service's API. */
    private Uni<Void> requireProject(TenantId tenant, String project) {
        return memories.projectExists(tenant, project).invoke(exists -> {
            if (!exists) {
                throw ProblemException.notFound("No memories in project " + project + " for this tenant");
            }
        }).replaceWithVoid();
    }

    private static ProblemException notFound(String id) {
        return ProblemException.notFound("No memory " + id + " for this tenant");
    }

    /** This page's templates (src/main/resources/templates/console); every expression is checked at build time. */
    @CheckedTemplate(basePath = "console", defaultName = CheckedTemplate.HYPHENATED_ELEMENT_NAME)
    static final class Templates {

        static native TemplateInstance projects(Layout layout, List<MemoryPages.Project> projects);

        static native TemplateInstance memories(Layout layout, MemoryPage.ListPage page);

        static native TemplateInstance memory(Layout layout, MemoryPage.Detail memory);

        private Templates() {
        }
    }
}
