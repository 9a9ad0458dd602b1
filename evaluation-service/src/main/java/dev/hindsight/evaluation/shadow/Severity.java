package dev.hindsight.evaluation.shadow;

import java.util.Locale;

/** Seed 002's {@code divergence_severity} of a decision comparison. */
public enum Severity {
    LOW,
    MEDIUM,
    HIGH;

    /** {@code low}, {@code medium} or {@code high}, as the seed writes it. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
