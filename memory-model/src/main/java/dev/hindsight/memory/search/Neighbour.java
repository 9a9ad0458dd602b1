package dev.hindsight.memory.search;

import java.util.UUID;

/**
 * A memory found near a query vector, its cosine similarity to it (1 = same direction) and, when the store returned
 * it, the memory's own vector, which lets an answer collapse near-duplicates ({@link SearchRule#rank}).
 */
public record Neighbour(UUID memoryId, double similarity, float[] vector) {

    /** A neighbour without its vector: never collapsed with another. */
    public Neighbour(UUID memoryId, double similarity) {
        this(memoryId, similarity, null);
    }

    /** Cosine similarity of two neighbours' vectors; 0 when either has none. */
    public double cosine(Neighbour other) {
        if (vector == null || other.vector == null || vector.length != other.vector.length) {
            return 0;
        }
        double dot = 0;
        double a = 0;
        double b = 0;
        for (int i = 0; i < vector.length; i++) {
            dot += vector[i] * other.vector[i];
            a += vector[i] * vector[i];
            b += other.vector[i] * other.vector[i];
        }
        return a == 0 || b == 0 ? 0 : dot / Math.sqrt(a * b);
    }
}
