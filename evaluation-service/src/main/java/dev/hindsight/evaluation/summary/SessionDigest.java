package dev.hindsight.evaluation.summary;

import java.util.List;
import java.util.Objects;

/**
 * What a session summary is made from: the session's kind ({@code trading}, {@code chat} or {@code debug}), a
 * title (e.g. "gpt-5 on 2025-10-02" or a task description; may be null), the assistant messages in order, short
 * facts about what was done (e.g. "buy 10 NVDA"; may be empty), the outcome ({@code success}, {@code failure},
 * {@code unknown} or null) and the producer's own summary hint (may be null).
 */
public record SessionDigest(
        String kind,
        String title,
        List<String> assistantMessages,
        List<String> actions,
        String outcome,
        String summaryHint) {

    public SessionDigest {
        assistantMessages = copyWithoutNulls(assistantMessages);
        actions = copyWithoutNulls(actions);
    }

    private static List<String> copyWithoutNulls(List<String> values) {
        return values == null ? List.of() : values.stream().filter(Objects::nonNull).toList();
    }
}
