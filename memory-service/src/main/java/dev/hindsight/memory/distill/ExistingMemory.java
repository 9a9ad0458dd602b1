package dev.hindsight.memory.distill;

import java.util.List;
import java.util.Objects;

/**
 * A stored memory as {@link MemoryMerge} needs it: what a draft may be merged into.
 *
 * @param id               the memory's id, kept by any merge
 * @param title            kept by any merge
 * @param description      may be replaced by a more informative one
 * @param content          may be replaced by a more informative one
 * @param outcome          {@code success} or {@code failure}; a draft merges only into the same outcome
 * @param tags             in their stored order; null reads as empty
 * @param sourceSessionIds the sessions it was learned from, oldest first; null reads as empty (an explicit record)
 */
public record ExistingMemory(String id, String title, String description, String content, String outcome,
                             List<String> tags, List<String> sourceSessionIds) {

    public ExistingMemory {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(title, "title");
        description = description == null ? "" : description;
        content = content == null ? "" : content;
        Objects.requireNonNull(outcome, "outcome");
        tags = tags == null ? List.of() : List.copyOf(tags);
        sourceSessionIds = sourceSessionIds == null ? List.of() : List.copyOf(sourceSessionIds);
    }
}
