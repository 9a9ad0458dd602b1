package dev.hindsight.memory.distill;

import java.util.List;
import java.util.Objects;

/**
 * A memory the distiller proposes, before the memory service embeds, stores and publishes it (as a distilled memory
 * with {@code DistilledConfidence}, or merged into a near-duplicate by {@link MemoryMerge}).
 *
 * @param title           at most {@value #MAX_TITLE_LENGTH} characters
 * @param description     one or two sentences
 * @param content         the structured lesson (Task / Approach / Key steps / Result, or Task / What went wrong / Do
 *                        instead)
 * @param outcome         {@value #SUCCESS} (a strategy) or {@value #FAILURE} (an anti-pattern), see
 *                        design.md § Distillation
 * @param tags            {@code kind:…}, {@code model:…}, {@code language:…}, {@code problem:…}, in that order
 * @param sourceSessionId the session it was learned from
 */
public record MemoryDraft(String title, String description, String content, String outcome, List<String> tags,
                          String sourceSessionId) {

    /** A success strategy. */
    public static final String SUCCESS = "success";

    /** A failure anti-pattern. */
    public static final String FAILURE = "failure";

    /** Longest title a draft carries: short enough for a list of search results. */
    public static final int MAX_TITLE_LENGTH = 80;

    public MemoryDraft {
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(content, "content");
        Objects.requireNonNull(sourceSessionId, "sourceSessionId");
        if (!SUCCESS.equals(outcome) && !FAILURE.equals(outcome)) {
            throw new IllegalArgumentException("outcome must be success or failure, was " + outcome);
        }
        tags = tags == null ? List.of() : List.copyOf(tags);
    }
}
