package dev.hindsight.evaluation.judge;

import java.util.List;
import java.util.Objects;

/** One rubric dimension's verdict: a 0–100 score, the event ids that earned or lost it, and a short why. */
public record RubricDimension(String name, int score, List<String> evidenceEventIds, String rationale) {

    public RubricDimension {
        Objects.requireNonNull(name, "name");
        if (score < 0 || score > 100) {
            throw new IllegalArgumentException("score must be within 0–100, was " + score);
        }
        evidenceEventIds = evidenceEventIds == null ? List.of() : List.copyOf(evidenceEventIds);
        rationale = rationale == null ? "" : rationale;
    }
}
