package dev.hindsight.memory.context;

import java.util.List;
import java.util.Objects;

/**
 * A memory as context injection renders it: already chosen and ranked by the caller (similarity to the task, then
 * confidence at or above {@code MinConfidence}).
 *
 * @param id          the memory's id, reported back in {@link ContextBlock.Rendered#includedIds()} so the caller can
 *                    record a usage signal for exactly the memories the agent saw
 * @param title       null reads as empty
 * @param description null reads as empty; used when there is no content
 * @param content     null reads as empty
 * @param outcome     {@code success} (a strategy) or {@code failure} (an anti-pattern); anything else reads as
 *                    success
 * @param confidence  the memory's confidence, shown with two decimals
 * @param tags        not rendered (they cost tokens and say little to an agent); null reads as empty
 */
record ContextMemory(String id, String title, String description, String content, String outcome,
                            double confidence, List<String> tags) {

    public ContextMemory {
        Objects.requireNonNull(id, "id");
        title = title == null ? "" : title;
        description = description == null ? "" : description;
        content = content == null ? "" : content;
        outcome = outcome == null ? "" : outcome;
        tags = tags == null ? List.of() : List.copyOf(tags);
    }

    /** Whether this memory is an anti-pattern, rendered under "Anti-patterns to avoid". */
    public boolean isAntiPattern() {
        return "failure".equalsIgnoreCase(outcome.strip());
    }
}
