package dev.hindsight.evaluation.judge;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** A judge's verdict on one trace: the overall 0–100 score, the dimensions it was built from, and the judge's id. */
public record Judgement(int overallScore, List<RubricDimension> dimensions, String judge) {

    public Judgement {
        if (overallScore < 0 || overallScore > 100) {
            throw new IllegalArgumentException("overallScore must be within 0–100, was " + overallScore);
        }
        dimensions = dimensions == null ? List.of() : List.copyOf(dimensions);
        Objects.requireNonNull(judge, "judge");
    }

    /** The dimension with this name, if the judge scored it. */
    public Optional<RubricDimension> dimension(String name) {
        return dimensions.stream().filter(d -> d.name().equals(name)).findFirst();
    }
}
