package dev.hindsight.evaluation.shadow;

import java.util.Objects;

/**
 * One classifier's decision on a message (a decision set's {@code active_decision} or one of its
 * {@code shadow_decisions}, design.md § Decision sets).
 *
 * @param version         the classifier version that decided (for shadows, the key of their score)
 * @param infoNeedType    e.g. {@code EXTERNAL_FACT_UNCERTAIN}; may be null when the producer left it out
 * @param action          the {@code decision_action}, e.g. {@code DIRECT_ANSWER}, {@code REQUIRE_COMM}
 * @param confidenceLevel {@code low}, {@code medium}, {@code high}, or null when unknown
 * @param reasoning       the classifier's free-text reasoning; may be null
 */
public record Decision(String version, String infoNeedType, String action, String confidenceLevel, String reasoning) {

    public Decision {
        // Every score and comparison turns on the action; a decision without one cannot be judged at all.
        Objects.requireNonNull(action, "action");
    }
}
