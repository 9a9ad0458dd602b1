package dev.hindsight.evaluation.shadow;

import java.util.Locale;

/** The {@code divergence_severity} of a decision comparison (design.md § Divergence severity). */
public enum Severity {
    LOW,
    MEDIUM,
    HIGH;

    /** {@code low}, {@code medium} or {@code high}, as written on the wire. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
