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
import io.quarkiverse.mcp.server.Tool;
import io.quarkiverse.mcp.server.ToolArg;
import io.quarkiverse.mcp.server.ToolCallException;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Seed 004's four MCP tools, with exactly its inputs and outputs, over streamable HTTP at {@code /mcp}. They call the
 * same {@link MemoryBank} as the REST API and are authenticated the same way (Bearer API key, checked by the HTTP
 * layer before any tool runs; the tenant comes from the key). A failure is a tool error the agent can read, never a
 * protocol error: an unknown id, another tenant's id and a malformed id all read "not found".
 */
@Singleton
public class MemoryTools {

    /** Seed 004: memory_search's own default limit. */
    static final int DEFAULT_LIMIT = 5;
    static final int MAX_LIMIT = 50;

    private final MemoryBank bank;
    private final TenantContext tenant;
    private final SecurityIdentity identity;

    public MemoryTools(MemoryBank bank, TenantContext tenant, SecurityIdentity identity) {
        this.bank = bank;
        this.tenant = tenant;
        this.identity = identity;
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record SearchHit(String id, String title, String content, String outcome, double confidence,
            List<String> tags) {
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
            description = "Search for relevant memories from past sessions: strategies that worked and anti-patterns "
                    + "to avoid, most similar first, only those with confidence >= 0.7. Content is scrubbed of secrets.")
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
                                m.tags()));
                    }
                    return new SearchResult(hits, hits.size());
                }).onFailure(ProblemException.class).transform(MemoryTools::toolError);
    }

    @Tool(name = "memory_record", structuredContent = true,
            description = "Explicitly record a new memory (a learning): created immediately, confidence 0.8.")
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
                .map(m -> new RecordResult(m.id().toString(), MemoryJson.SCRUBBER.scrub(m.title()), m.outcome(),
                        MemoryJson.round(m.confidence())))
                .onFailure(ProblemException.class).transform(MemoryTools::toolError);
    }

    @Tool(name = "memory_feedback", structuredContent = true,
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
