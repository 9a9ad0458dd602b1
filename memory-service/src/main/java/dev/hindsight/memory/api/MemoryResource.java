package dev.hindsight.memory.api;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.hindsight.memory.bank.Caller;
import dev.hindsight.memory.bank.Found;
import dev.hindsight.memory.bank.MemoryBank;
import dev.hindsight.memory.bank.MemoryRow;
import dev.hindsight.memory.bank.MemoryStore;
import dev.hindsight.memory.bank.NewMemory;
import dev.hindsight.memory.config.MemoryConfig;
import dev.hindsight.platform.auth.Scopes;
import dev.hindsight.platform.auth.TenantContext;
import dev.hindsight.platform.problem.Problem;
import dev.hindsight.platform.problem.ProblemException;
import dev.hindsight.platform.tenant.TenantId;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * The ReasoningBank over REST (design.md § ReasoningBank memory). Projects belong to a tenant: the same
 * project id under two tenants names two unrelated projects, and one tenant asking for another's project or memory gets
 * 404.
 */
@Path("/v1")
@Tag(name = "Memories")
@Consumes(MediaType.APPLICATION_JSON)
@Produces(MediaType.APPLICATION_JSON)
class MemoryResource {

    private final MemoryBank bank;
    private final MemoryStore store;
    private final TenantContext tenant;
    private final MemoryConfig config;

    public MemoryResource(MemoryBank bank, MemoryStore store, TenantContext tenant, MemoryConfig config) {
        this.bank = bank;
        this.store = store;
        this.tenant = tenant;
        this.config = config;
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Page(List<MemoryJson> memories, int count, String nextCursor) {
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record SearchResult(List<MemoryJson> memories, int count) {
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record FeedbackResult(String memoryId, double newConfidence, boolean helpful) {
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record OutcomeResult(boolean recorded, double newConfidence, String message) {
    }

    @POST
    @Path("/projects/{project}/memories")
    @RolesAllowed(Scopes.INGEST)
    @Operation(operationId = "recordMemory",
            summary = "Record a memory", description = "As the MCP tool memory_record: created at once (no "
            + "distillation) with confidence 0.8. Idempotent: recording an identical memory again (a retry) answers "
            + "the one already recorded.")
    @APIResponse(responseCode = "201", description = "Recorded; Location names the memory",
            content = @Content(schema = @Schema(implementation = MemoryJson.class)))
    @APIResponse(responseCode = "200", description = "An identical memory (same title, description, content and "
            + "outcome) is already recorded in the project: this is it, unchanged; Location names it",
            content = @Content(schema = @Schema(implementation = MemoryJson.class)))
    @APIResponse(responseCode = "503",
            description = "Kafka did not acknowledge; nothing changed; retry after Retry-After seconds")
    public Uni<Response> record(@PathParam("project") @Pattern(regexp = Requests.ID) String project,
            @Valid @NotNull Requests.RecordMemory body) {
        NewMemory memory = new NewMemory(body.title().strip(), blankToNull(body.description()), body.content(),
                body.outcome(), body.tags() == null ? List.of() : body.tags().stream().map(String::strip).distinct().toList(),
                body.sourceSessionIds() == null ? List.of() : body.sourceSessionIds());
        return bank.record(caller(), project, memory).map(recorded -> {
            URI location = URI.create("/v1/memories/" + recorded.memory().id());
            return (recorded.created() ? Response.created(location) : Response.ok().location(location))
                    .entity(MemoryJson.of(recorded.memory())).build();
        });
    }

    @GET
    @Path("/projects/{project}/memories")
    @RolesAllowed(Scopes.READ)
    @Operation(operationId = "listMemories",
            summary = "List a project's memories", description = "Newest first; pass next_cursor as cursor.")
    public Uni<Page> list(@PathParam("project") @Pattern(regexp = Requests.ID) String project,
            @QueryParam("limit") @DefaultValue("50") @Min(1) @Max(200) int limit,
            @QueryParam("cursor") String cursor) {
        Cursor after = Cursor.parse(cursor);
        TenantId owner = tenant.tenant();
        return bank.requireProject(owner, project)
                .flatMap(exists -> store.page(owner, project, after == null ? null : after.createdAt(),
                        after == null ? null : after.id(), limit + 1))
                .map(rows -> {
                    boolean more = rows.size() > limit;
                    List<MemoryRow> page = more ? rows.subList(0, limit) : rows;
                    MemoryRow last = page.isEmpty() ? null : page.get(page.size() - 1);
                    return new Page(page.stream().map(MemoryJson::of).toList(), page.size(),
                            more ? new Cursor(last.createdAt(), last.id()).encode() : null);
                });
    }

    @POST
    @Path("/projects/{project}/memories/search")
    @RolesAllowed(Scopes.READ)
    @Operation(operationId = "searchMemories",
            summary = "Search memories semantically", description = "As the MCP tool memory_search: nearest by "
            + "meaning, only confidence >= 0.7, most relevant first (default limit 10); each result records a usage "
            + "signal.")
    public Uni<SearchResult> search(@PathParam("project") @Pattern(regexp = Requests.ID) String project,
            @Valid @NotNull Requests.Search body) {
        int limit = body.limit() == null ? config.search().defaultLimit() : body.limit();
        Caller caller = caller();
        return bank.search(caller, project, body.query(), limit, body.sessionId(), "search")
                .flatMap(found -> bank.orNotFound(caller.tenant(), project, found))
                .map(found -> new SearchResult(found.stream()
                        .map(f -> MemoryJson.of(f.memory(), f.similarity(), f.probation())).toList(), found.size()));
    }

    @DELETE
    @Path("/projects/{project}/memories")
    @RolesAllowed(Scopes.ADMIN)
    @Operation(operationId = "deleteProjectMemories",
            summary = "Delete every memory of a project", description = "Only the caller's tenant's project.")
    @APIResponse(responseCode = "204", description = "Deleted")
    @APIResponse(responseCode = "503",
            description = "Kafka did not acknowledge; nothing changed; retry after Retry-After seconds")
    public Uni<Response> deleteProject(@PathParam("project") @Pattern(regexp = Requests.ID) String project) {
        return bank.deleteProject(caller(), project).map(done -> Response.noContent().build());
    }

    @GET
    @Path("/memories/{id}")
    @RolesAllowed(Scopes.READ)
    @Operation(operationId = "getMemory", summary = "Get a memory")
    public Uni<MemoryJson> get(@PathParam("id") String id) {
        return bank.get(tenant.tenant(), memoryId(id)).map(MemoryJson::of);
    }

    @DELETE
    @Path("/memories/{id}")
    @RolesAllowed(Scopes.INGEST)
    @Operation(operationId = "deleteMemory", summary = "Delete a memory")
    @APIResponse(responseCode = "204", description = "Deleted")
    @APIResponse(responseCode = "503",
            description = "Kafka did not acknowledge; nothing changed; retry after Retry-After seconds")
    public Uni<Response> delete(@PathParam("id") String id) {
        return bank.delete(caller(), memoryId(id)).map(done -> Response.noContent().build());
    }

    @POST
    @Path("/memories/{id}/feedback")
    @RolesAllowed(Scopes.INGEST)
    @Operation(operationId = "giveFeedback",
            summary = "Rate a memory helpful or unhelpful", description = "As the MCP tool memory_feedback: an "
            + "explicit signal; the project's signal weights learn from it; confidence is recomputed.")
    @APIResponse(responseCode = "200", description = "Recorded; the memory's confidence as it is now",
            content = @Content(schema = @Schema(implementation = FeedbackResult.class)))
    @APIResponse(responseCode = "503",
            description = "Kafka did not acknowledge; nothing changed; retry after Retry-After seconds")
    public Uni<FeedbackResult> feedback(@PathParam("id") String id, @Valid @NotNull Requests.Feedback body) {
        return bank.feedback(caller(), memoryId(id), body.helpful(), body.sessionId())
                .map(row -> new FeedbackResult(row.id().toString(), MemoryJson.round(row.confidence()), body.helpful()));
    }

    @POST
    @Path("/memories/{id}/outcome")
    @RolesAllowed(Scopes.INGEST)
    @Operation(operationId = "reportOutcome",
            summary = "Report a task's outcome after using a memory", description = "As the MCP tool memory_outcome: "
            + "the task's success or failure counts as an outcome signal; confidence is recomputed.")
    @APIResponse(responseCode = "200", description = "Recorded (or why not); the memory's confidence as it is now",
            content = @Content(schema = @Schema(implementation = OutcomeResult.class)))
    @APIResponse(responseCode = "503",
            description = "Kafka did not acknowledge; nothing changed; retry after Retry-After seconds")
    public Uni<OutcomeResult> outcome(@PathParam("id") String id, @Valid @NotNull Requests.Outcome body) {
        return bank.outcome(caller(), memoryId(id), body.succeeded(), body.sessionId())
                .map(row -> new OutcomeResult(true, MemoryJson.round(row.confidence()),
                        body.succeeded() ? "Success recorded" : "Failure recorded"));
    }

    private Caller caller() {
        return new Caller(tenant.tenant(), tenant.principal(), "rest");
    }

    /** A malformed id names no memory: 404, like an unknown one. */
    static UUID memoryId(String id) {
        try {
            return UUID.fromString(id);
        } catch (IllegalArgumentException e) {
            throw ProblemException.notFound("No memory " + id + " for this tenant");
        }
    }

    private static String blankToNull(String text) {
        return text == null || text.isBlank() ? null : text;
    }

    /** Opaque page cursor: the last row's (created_at, id). */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Cursor(Instant createdAt, UUID id) {

        String encode() {
            return Base64.getUrlEncoder().withoutPadding().encodeToString(
                    (createdAt.toString() + "|" + id).getBytes(StandardCharsets.UTF_8));
        }

        static Cursor parse(String cursor) {
            if (cursor == null || cursor.isBlank()) {
                return null;
            }
            try {
                String[] parts = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8).split("\\|");
                return new Cursor(Instant.parse(parts[0]), UUID.fromString(parts[1]));
            } catch (RuntimeException e) {
                throw ProblemException.badRequest("cursor is not one this API returned",
                        List.of(new Problem.FieldError("cursor", "invalid cursor")));
            }
        }
    }
}
