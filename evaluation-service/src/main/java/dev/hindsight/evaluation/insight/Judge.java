package dev.hindsight.evaluation.insight;

import dev.hindsight.evaluation.judge.Judgement;
import dev.hindsight.evaluation.judge.Trace;
import io.smallrye.mutiny.Uni;

/** Scores a trace's methodology (design.md § Rubric); asynchronous because a model behind it may be slow. */
public interface Judge {

    /** Recorded with every judgement, e.g. {@code rubric.v1} or {@code openai:gpt-4o-mini}. */
    String id();

    Uni<Judgement> judge(Trace trace);
}
