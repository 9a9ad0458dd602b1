package dev.hindsight.evaluation.insight;

import dev.hindsight.evaluation.summary.SessionDigest;
import io.smallrye.mutiny.Uni;

/** Writes the 1–2 sentence summaries of seed 000; asynchronous because a model behind it may be slow. */
public interface Summarizer {

    /** Recorded with every summary, e.g. {@code extractive.v1} or {@code openai:gpt-4o-mini}. */
    String id();

    Uni<String> summarizeMessage(String content);

    Uni<String> summarizeSession(SessionDigest digest);
}
