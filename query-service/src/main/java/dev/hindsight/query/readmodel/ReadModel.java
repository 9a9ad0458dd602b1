package dev.hindsight.query.readmodel;

/**
 * One generation of the read models: PostgreSQL schema {@code rm_<generation>}, a copy of {@code rm_template}.
 * Statements name their tables as {@code {rm}.table}; {@link #sql} qualifies them for this generation.
 */
public record ReadModel(int generation) {

    public ReadModel {
        if (generation < 1) {
            throw new IllegalArgumentException("generation must be positive: " + generation);
        }
    }

    public String schema() {
        return "rm_" + generation;
    }

    /** The statement with every {@code {rm}} replaced by this generation's schema. */
    public String sql(String statement) {
        return statement.replace("{rm}", schema());
    }
}
