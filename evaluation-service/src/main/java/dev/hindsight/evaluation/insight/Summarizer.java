package dev.hindsight.evaluation.insight;

import dev.hindsight.evaluation.summary.SessionDigest;
import io.smallrye.mutiny.Uni;
import java.util.Optional;

/** Writes the 1–2 sentence summaries of design.md § Summaries; asynchronous because a model behind it may be slow. */
public interface Summarizer {

    /** Recorded with every summary, e.g. {@code extractive.v1} or {@code openai:gpt-4o-mini}. */
    String id();

    Uni<String> summarizeMessage(String content);

    /**
     * The summary right now, on the calling thread, for a summarizer that calls no model (a pure function of the
     * content, cheap enough to run inline): the consumer then writes it in the transaction that records the message,
     * with no job. Empty when a summary needs a model call, which must never hold up the topic.
     */
    default Optional<String> summarizeMessageInline(String content) {
        return Optional.empty();
    }

    Uni<String> summarizeSession(SessionDigest digest);
}
