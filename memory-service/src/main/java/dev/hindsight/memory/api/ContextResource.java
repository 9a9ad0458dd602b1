package dev.hindsight.memory.api;

import dev.hindsight.memory.bank.Caller;
import dev.hindsight.memory.config.MemoryConfig;
import dev.hindsight.memory.context.ContextInjection;
import dev.hindsight.memory.context.ContextInjection.Injection;
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
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * Context injection (design.md § Context injection): the memories most relevant to a task, rendered as one block an
 * agent puts into its prompt at session start, within a token budget (500 tokens by default). Only the memories that
 * made it into the block record a usage signal.
 */
@Path("/v1/projects/{project}/context")
@Tag(name = "Memories")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Scopes.READ)
class ContextResource {

    private final ContextInjection injection;
    private final TenantContext tenant;
    private final MemoryConfig config;

    public ContextResource(ContextInjection injection, TenantContext tenant, MemoryConfig config) {
        this.injection = injection;
        this.tenant = tenant;
        this.config = config;
    }

    @GET
    @Operation(operationId = "getContext", summary = "A ready-to-inject block of the memories relevant to a task",
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
        return injection.inject(new Caller(tenant.tenant(), tenant.principal(), "rest"), project, task, budget, count,
                sessionId);
    }
}
