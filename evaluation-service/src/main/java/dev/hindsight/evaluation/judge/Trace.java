package dev.hindsight.evaluation.judge;

import java.util.List;

/** A debugging session as the judge sees it: the task, its steps in the order they happened, and the final diff. */
public record Trace(String sessionId, String taskDescription, List<TraceStep> steps, String finalCodeDiff) {

    public Trace {
        steps = steps == null ? List.of() : List.copyOf(steps);
    }
}
