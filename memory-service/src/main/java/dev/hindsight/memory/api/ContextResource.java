package dev.hindsight.memory.api;

import com.fasterxml.jackson.databind.annotation.JsonNaming;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import dev.hindsight.memory.bank.Caller;
import dev.hindsight.memory.bank.Found;
import dev.hindsight.memory.bank.MemoryBank;
import dev.hindsight.memory.config.MemoryConfig;
import dev.hindsight.memory.context.ContextBlock;
import dev.hindsight.memory.context.ContextMemory;
import dev.hindsight.platform.auth.Scopes;
import dev.hindsight.platform.auth.TenantContext;
import dev.hindsight.platform.problem.Problem;
import dev.hindsight.platform.problem.ProblemException;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Pattern;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * Context injection (seed 004 future enhancement 7): the memories most relevant to a task, rendered as one block an
 * agent puts into its prompt at session start, within a token budget (seed 004 SC-002: under 500 tokens). Only the
 * memories that made it into the block record a usage signal.
 */
@Path("/v1/projects/{project}/context")
@Tag(name = "Memories (seed 004)")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Scopes.READ)
public class ContextResource {

    private final MemoryBank bank;
    private final TenantContext tenant;
    private final MemoryConfig config;

    public ContextResource(MemoryBank bank, TenantContext tenant, MemoryConfig config) {
        this.bank = bank;
        this.tenant = tenant;
        this.config = config;
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Injection(String context, int estimatedTokens, int maxTokens, List<String> memoryIds,
            int omitted) {
    }

    @GET
    @Operation(summary = "A ready-to-inject block of the memories relevant to a task",
            description = "Strategies and anti-patterns with confidence >= 0.7, most relevant first, never over "
                    + "max_tokens (default 500, estimated conservatively for BPE tokenizers).")
    public Uni<Injection> context(@PathParam("project") @Pattern(regexp = Requests.ID) String project,
            @QueryParam("task") String task,
            @QueryParam("max_tokens") @Min(50) @Max(4_000) Integer maxTokens,
            @QueryParam("limit") @Min(1) @Max(20) Integer limit,
            @QueryParam("session_id") @Pattern(regexp = Requests.ID) String sessionId) {
        if (!Requests.hasText(task) || task.length() > 4_000) {
            throw ProblemException.badRequest("task is required: the work the agent is about to do",
                    List.of(new Problem.FieldError("task", !Requests.hasText(task)
                            ? "must not be blank" : "size must be at most 4000")));
        }
        int budget = maxTokens == null ? config.context().maxTokens() : maxTokens;
        int count = limit == null ? config.context().maxMemories() : limit;
        Caller caller = new Caller(tenant.tenant(), tenant.principal(), "rest");
        return bank.find(caller.tenant(), project, task, count, "task")
                .flatMap(found -> bank.orNotFound(caller.tenant(), project, found))
                .flatMap(found -> {
                    List<ContextMemory> memories = found.stream().map(f -> new ContextMemory(
                            f.memory().id().toString(), MemoryJson.SCRUBBER.scrub(f.memory().title()),
                            MemoryJson.SCRUBBER.scrub(f.memory().description()), MemoryJson.SCRUBBER.scrub(f.memory().content()),
                            f.memory().outcome(), f.memory().confidence(), f.memory().tags())).toList();
                    ContextBlock.Rendered rendered = ContextBlock.render(task, memories, budget);
                    Set<String> included = new HashSet<>(rendered.includedIds());
                    List<Found> used = found.stream().filter(f -> included.contains(f.memory().id().toString())).toList();
                    bank.recordUsageLater(caller, used, sessionId, "context");
                    return Uni.createFrom().item(new Injection(rendered.text(), rendered.estimatedTokens(), budget,
                            rendered.includedIds(), rendered.omitted()));
                });
    }
}
