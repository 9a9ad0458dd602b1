package dev.hindsight.memory.context;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.hindsight.memory.bank.Caller;
import dev.hindsight.memory.bank.Found;
import dev.hindsight.memory.bank.MemoryBank;
import dev.hindsight.platform.redact.SecretScrubber;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The context block for a task, as REST ({@code GET /v1/projects/{p}/context}), the MCP tool {@code memory_context}
 * and the MCP prompt of the same name give it: the most relevant memories, scrubbed, rendered within the token budget
 * ({@link ContextBlock}); only the memories that made it into the block record a usage signal.
 */
@ApplicationScoped
public class ContextInjection {

    private static final SecretScrubber SCRUBBER = new SecretScrubber();

    private final MemoryBank bank;

    public ContextInjection(MemoryBank bank) {
        this.bank = bank;
    }

    /** The block and what is in it. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Injection(String context, int estimatedTokens, int maxTokens, List<String> memoryIds,
            int omitted) {
    }

    /**
     * The block for {@code task} in {@code project}, at most {@code budget} tokens of at most {@code count} memories;
     * fails with a not-found problem when the project has no memories at all.
     */
    public Uni<Injection> inject(Caller caller, String project, String task, int budget, int count, String sessionId) {
        return bank.find(caller.tenant(), project, task, count, "task", false)
                .flatMap(found -> bank.orNotFound(caller.tenant(), project, found))
                .map(found -> {
                    List<ContextMemory> memories = found.stream().map(f -> new ContextMemory(
                            f.memory().id().toString(), SCRUBBER.scrub(f.memory().title()),
                            SCRUBBER.scrub(f.memory().description()),
                            SCRUBBER.scrub(f.memory().content()), f.memory().outcome(),
                            f.memory().confidence(), f.memory().tags())).toList();
                    ContextBlock.Rendered rendered = ContextBlock.render(task, memories, budget);
                    Set<String> included = new HashSet<>(rendered.includedIds());
                    List<Found> used = found.stream().filter(f -> included.contains(f.memory().id().toString()))
                            .toList();
                    bank.recordUsageLater(caller, used, sessionId, "context");
                    return new Injection(rendered.text(), rendered.estimatedTokens(), budget, rendered.includedIds(),
                            rendered.omitted());
                });
    }
}
