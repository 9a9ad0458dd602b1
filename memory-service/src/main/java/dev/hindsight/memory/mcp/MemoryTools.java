package dev.hindsight.memory.mcp;

import com.fasterxml.jackson.databind.annotation.JsonNaming;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import dev.hindsight.memory.api.MemoryJson;
import dev.hindsight.memory.api.Requests;
import dev.hindsight.memory.bank.Caller;
import dev.hindsight.memory.bank.MemoryBank;
import dev.hindsight.memory.bank.NewMemory;
import dev.hindsight.platform.auth.Scopes;
import dev.hindsight.platform.auth.TenantContext;
import dev.hindsight.platform.json.StorableText;
import dev.hindsight.platform.problem.ProblemException;
import dev.hindsight.memory.config.MemoryConfig;
import dev.hindsight.memory.context.ContextInjection;
import dev.hindsight.memory.context.ContextInjection.Injection;
import io.quarkiverse.mcp.server.JsonRpcErrorCodes;
import io.quarkiverse.mcp.server.McpException;
import io.quarkiverse.mcp.server.Prompt;
import io.quarkiverse.mcp.server.PromptArg;
import io.quarkiverse.mcp.server.PromptMessage;
import io.quarkiverse.mcp.server.PromptResponse;
import io.quarkiverse.mcp.server.Tool;
import io.quarkiverse.mcp.server.Tool.Annotations;
import io.quarkiverse.mcp.server.ToolArg;
import io.quarkiverse.mcp.server.ToolCallException;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The four MCP tools of design.md § MCP tools, with exactly their inputs and outputs, and {@code memory_context} (the
 * context block for a task, as REST's {@code GET /v1/projects/{p}/context}, also offered as the prompt
 * {@code memory_context} for hosts that inject prompts at session start), over streamable HTTP at {@code /mcp}. They
 * call the same {@link MemoryBank} as the REST API and are authenticated the same way (Bearer API key, checked by the
 * HTTP layer before any tool runs; the tenant comes from the key). Each result is structured content and the same JSON
 * as a text block ({@code quarkus.mcp.server.tools.structured-content.compatibility-mode}), since many hosts hand the
 * model only the text. A failure is a tool error the agent can read, never a protocol error: an unknown id, another
 * tenant's id and a malformed id all read "not found". Every tool only adds (a memory, a signal; a search records that
 * it was used), so none is read-only or idempotent, none destroys anything, and none reaches beyond the bank.
 */
@Singleton
class MemoryTools {

    /** memory_search's own default limit (design.md § Semantic search). */
    static final int DEFAULT_LIMIT = 5;
    static final int MAX_LIMIT = 50;

    private final MemoryBank bank;
    private final ContextInjection context;
    private final MemoryConfig config;
    private final TenantContext tenant;
    private final SecurityIdentity identity;

    public MemoryTools(MemoryBank bank, ContextInjection context, MemoryConfig config, TenantContext tenant,
            SecurityIdentity identity) {
        this.bank = bank;
        this.context = context;
        this.config = config;
        this.tenant = tenant;
        this.identity = identity;
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record SearchHit(String id, String title, String content, String outcome, double confidence,
            boolean probation, List<String> tags) {
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record SearchResult(List<SearchHit> memories, int count) {
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record RecordResult(String id, String title, String outcome, double confidence) {
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record FeedbackResult(String memoryId, double newConfidence, boolean helpful) {
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record OutcomeResult(boolean recorded, double newConfidence, String message) {
    }

    @Tool(name = "memory_search", structuredContent = true,
            annotations = @Annotations(title = "Search memories", readOnlyHint = false, destructiveHint = false, idempotentHint = false, openWorldHint = false),
            description = "Search for relevant memories from past sessions: strategies that worked and anti-patterns "
                    + "to avoid, most relevant first, only those with confidence >= 0.7, except that one result may be a new "
                    + "distilled memory on probation (probation: true, confidence 0.6 to 0.7) that has yet to earn "
                    + "trust. Content is scrubbed of secrets.")
    public Uni<SearchResult> search(
            @ToolArg(name = "project_id", description = "The project whose memories to search") String projectId,
            @ToolArg(name = "query", description = "What the agent is working on, in its own words") String query,
            @ToolArg(name = "limit", description = "Maximum results (default 5)", required = false) Integer limit) {
        Caller caller = caller(Scopes.READ);
        String project = project(projectId);
        require(Requests.hasText(query) && query.length() <= 4_000, "query must be 1-4000 characters");
        storable("query", query);
        int max = limit == null ? DEFAULT_LIMIT : limit;
        require(max >= 1 && max <= MAX_LIMIT, "limit must be between 1 and " + MAX_LIMIT);
        return bank.search(caller, project, query, max, null, "mcp")
                .map(found -> {
                    List<SearchHit> hits = new ArrayList<>(found.size());
                    for (var hit : found) {
                        var m = hit.memory();
                        hits.add(new SearchHit(m.id().toString(), MemoryJson.SCRUBBER.scrub(m.title()),
                                MemoryJson.SCRUBBER.scrub(m.content()), m.outcome(), MemoryJson.round(m.confidence()),
                                hit.probation(), m.tags()));
                    }
                    return new SearchResult(hits, hits.size());
                }).onFailure(ProblemException.class).transform(MemoryTools::toolError);
    }

    @Tool(name = "memory_record", structuredContent = true,
            annotations = @Annotations(title = "Record a memory", readOnlyHint = false, destructiveHint = false, idempotentHint = true, openWorldHint = false),
            description = "Explicitly record a new memory (a learning): created immediately, confidence 0.8. Recording "
                    + "an identical memory again returns the one already recorded.")
    public Uni<RecordResult> record(
            @ToolArg(name = "project_id", description = "The project the memory belongs to") String projectId,
            @ToolArg(name = "title", description = "A short title") String title,
            @ToolArg(name = "content", description = "The strategy or anti-pattern, in full") String content,
            @ToolArg(name = "outcome", description = "success (a strategy) or failure (an anti-pattern)") String outcome,
            @ToolArg(name = "tags", description = "Optional tags, e.g. language:go", required = false) List<String> tags) {
        Caller caller = caller(Scopes.INGEST);
        String project = project(projectId);
        require(Requests.hasText(title) && title.length() <= 200, "title must be 1-200 characters");
        require(Requests.hasText(content) && content.length() <= 20_000,
                "content must be 1-20000 characters");
        require("success".equals(outcome) || "failure".equals(outcome), "outcome must be success or failure");
        storable("title", title);
        storable("content", content);
        List<String> cleanTags = tags == null ? List.of() : tags.stream().filter(t -> t != null && !t.isBlank())
                .map(String::strip).distinct().toList();
        require(cleanTags.size() <= 32 && cleanTags.stream().allMatch(t -> t.length() <= 64),
                "at most 32 tags of at most 64 characters");
        cleanTags.forEach(tag -> storable("tags", tag));
        return bank.record(caller, project, new NewMemory(title.strip(), null, content, outcome, cleanTags, List.of()))
                .map(recorded -> recorded.memory())
                .map(m -> new RecordResult(m.id().toString(), MemoryJson.SCRUBBER.scrub(m.title()), m.outcome(),
                        MemoryJson.round(m.confidence())))
                .onFailure(ProblemException.class).transform(MemoryTools::toolError);
    }

    @Tool(name = "memory_feedback", structuredContent = true,
            annotations = @Annotations(title = "Rate a memory", readOnlyHint = false, destructiveHint = false, idempotentHint = false, openWorldHint = false),
            description = "Rate a memory as helpful or unhelpful; its confidence and the project's signal weights learn "
                    + "from it.")
    public Uni<FeedbackResult> feedback(
            @ToolArg(name = "memory_id", description = "The memory's id (uuid)") String memoryId,
            @ToolArg(name = "helpful", description = "Whether the memory helped") Boolean helpful) {
        Caller caller = caller(Scopes.INGEST);
        require(helpful != null, "helpful is required");
        return bank.feedback(caller, memoryId(memoryId), helpful, null)
                .map(m -> new FeedbackResult(m.id().toString(), MemoryJson.round(m.confidence()), helpful))
                .onFailure(ProblemException.class).transform(MemoryTools::toolError);
    }

    @Tool(name = "memory_outcome", structuredContent = true,
            annotations = @Annotations(title = "Report a task's outcome", readOnlyHint = false, destructiveHint = false, idempotentHint = false, openWorldHint = false),
            description = "Report whether the task succeeded after using a memory: the strongest evidence of its use.")
    public Uni<OutcomeResult> outcome(
            @ToolArg(name = "memory_id", description = "The memory's id (uuid)") String memoryId,
            @ToolArg(name = "succeeded", description = "Whether the task succeeded") Boolean succeeded,
            @ToolArg(name = "session_id", description = "The agent's session, if any", required = false)
            String sessionId) {
        Caller caller = caller(Scopes.INGEST);
        require(succeeded != null, "succeeded is required");
        require(sessionId == null || sessionId.matches(Requests.ID), "session_id is not a valid id");
        return bank.outcome(caller, memoryId(memoryId), succeeded, sessionId)
                .map(m -> new OutcomeResult(true, MemoryJson.round(m.confidence()),
                        succeeded ? "Success recorded" : "Failure recorded"))
                .onFailure(ProblemException.class).transform(MemoryTools::toolError);
    }

    @Tool(name = "memory_context", structuredContent = true,
            annotations = @Annotations(title = "Context for a task", readOnlyHint = false, destructiveHint = false,
                    idempotentHint = false, openWorldHint = false),
            description = "The memories relevant to the task you are starting, as one ready-to-use block (strategies "
                    + "and anti-patterns with confidence >= 0.7, most relevant first) within a token budget: read it "
                    + "before you begin. Fails when the project has no memories yet.")
    public Uni<Injection> context(
            @ToolArg(name = "project_id", description = "The project whose memories to use") String projectId,
            @ToolArg(name = "task", description = "The work you are about to do, in your own words") String task,
            @ToolArg(name = "max_tokens", description = "Token budget of the block, 50-4000 (default 500)",
                    required = false) Integer maxTokens,
            @ToolArg(name = "session_id", description = "Your session, if any", required = false) String sessionId) {
        Caller caller = caller(Scopes.READ);
        String project = project(projectId);
        require(Requests.hasText(task) && task.length() <= 4_000, "task must be 1-4000 characters");
        storable("task", task);
        int budget = maxTokens == null ? config.context().maxTokens() : maxTokens;
        require(budget >= 50 && budget <= 4_000, "max_tokens must be between 50 and 4000");
        require(sessionId == null || sessionId.matches(Requests.ID), "session_id is not a valid id");
        return context.inject(caller, project, task, budget, config.context().maxMemories(), sessionId)
                .onFailure(ProblemException.class).transform(MemoryTools::toolError);
    }

    /**
     * The context block as a prompt, for hosts that offer prompts to put at the start of a session. Arguments are
     * checked as the tool checks them; a wrong one is an invalid-params error saying which.
     */
    @Prompt(name = "memory_context", title = "Lessons from past sessions",
            description = "The project's memories relevant to a task (strategies that worked, anti-patterns to avoid), "
                    + "as a message to start a session with.")
    public Uni<PromptResponse> contextPrompt(
            @PromptArg(name = "project_id", description = "The project whose memories to use") String projectId,
            @PromptArg(name = "task", description = "The work about to be done") String task,
            @PromptArg(name = "max_tokens", description = "Token budget of the block, 50-4000 (default 500)",
                    required = false) String maxTokens) {
        Integer budget;
        try {
            budget = maxTokens == null || maxTokens.isBlank() ? null : Integer.valueOf(maxTokens.strip());
        } catch (NumberFormatException e) {
            throw new McpException("max_tokens must be a whole number between 50 and 4000",
                    JsonRpcErrorCodes.INVALID_PARAMS);
        }
        Uni<Injection> block;
        try {
            block = context(projectId, task, budget, null);
        } catch (ToolCallException invalid) {
            throw new McpException(invalid.getMessage(), JsonRpcErrorCodes.INVALID_PARAMS);
        }
        return block.onFailure(ToolCallException.class)
                .transform(failure -> new McpException(failure.getMessage(), JsonRpcErrorCodes.INVALID_PARAMS))
                .map(injection -> new PromptResponse("Memories of project " + projectId + " for: " + task,
                        List.of(PromptMessage.withUserRole(injection.context()))));
    }

    /** The authenticated caller, fail-closed: no tenant or a missing scope is a tool error before anything runs. */
    private Caller caller(String scope) {
        if (identity.isAnonymous()) {
            throw new ToolCallException("Not authenticated");
        }
        if (!identity.hasRole(scope)) {
            throw new ToolCallException("This API key lacks the '" + scope + "' scope");
        }
        return new Caller(tenant.tenant(), tenant.principal(), "mcp");
    }

    private static String project(String projectId) {
        require(projectId != null && projectId.matches(Requests.ID),
                "project_id must be 1-128 characters of letters, digits and . _ : @ -");
        return projectId;
    }

    private static UUID memoryId(String id) {
        try {
            return UUID.fromString(id == null ? "" : id);
        } catch (IllegalArgumentException e) {
            throw new ToolCallException("No memory " + id + " for this tenant");
        }
    }

    /**
     * Tool arguments do not pass through the REST layer's JSON reading, so the rule for text that can be stored is
     * applied here: the same refusal, as a tool error naming the argument.
     */
    private static void storable(String argument, String text) {
        String problem = StorableText.problem(text);
        require(problem == null, argument + " " + problem);
    }

    private static void require(boolean condition, String message) {
        if (!condition) {
            throw new ToolCallException(message);
        }
    }

    private static Throwable toolError(Throwable failure) {
        ProblemException problem = (ProblemException) failure;
        return new ToolCallException(problem.problem().detail());
    }
}
