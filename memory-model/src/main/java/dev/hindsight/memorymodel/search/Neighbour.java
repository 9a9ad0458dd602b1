package dev.hindsight.memorymodel.search;

import java.util.UUID;

/**
 * A memory found near a query vector: its cosine similarity to the query (1 = same direction), its relevance, which
 * orders an answer ({@link SearchRule#relevanceQuery}: the similarity to what the query says beyond what the whole
 * project's memories share), and, when the store returned it, the memory's own vector, which lets an answer collapse
 * near-duplicates ({@link SearchRule#rank}). A neighbour found by the plain query vector has relevance = similarity.
 */
public record Neighbour(UUID memoryId, double similarity, float[] vector, double relevance) {

    /** A neighbour found by the plain query vector: its relevance is its similarity. */
    public Neighbour(UUID memoryId, double similarity, float[] vector) {
        this(memoryId, similarity, vector, similarity);
    }

    /** A neighbour without its vector: never collapsed with another. */
    public Neighbour(UUID memoryId, double similarity) {
        this(memoryId, similarity, null);
    }

    /**
     * This neighbour, found by a {@linkplain SearchRule#relevanceQuery relevance query}, whose similarity as the store
     * measured it is therefore its relevance; its similarity becomes the cosine of its vector with the plain
     * {@code query} (unchanged when the store returned no vector).
     */
    public Neighbour foundFor(float[] query) {
        return new Neighbour(memoryId, vector == null ? similarity : cosine(vector, query), vector, similarity);
    }

    /** Cosine similarity of two neighbours' vectors; 0 when either has none. */
    public double cosine(Neighbour other) {
        if (vector == null || other.vector == null) {
            return 0;
        }
        return cosine(vector, other.vector);
    }

    /** Cosine similarity of two vectors; 0 when their lengths differ or either is zero. */
    static double cosine(float[] x, float[] y) {
        if (x.length != y.length) {
            return 0;
        }
        double dot = 0;
        double a = 0;
        double b = 0;
        for (int i = 0; i < x.length; i++) {
            dot += x[i] * y[i];
            a += x[i] * x[i];
            b += y[i] * y[i];
        }
        return a == 0 || b == 0 ? 0 : dot / Math.sqrt(a * b);
    }
}
