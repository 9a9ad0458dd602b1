package dev.hindsight.evaluation.shadow;

/** Semantic similarity of two reasoning texts, as the cosine of their embeddings. */
@FunctionalInterface
public interface ReasoningSimilarity {

    /** Cosine similarity in [-1, 1] of two non-blank texts. */
    double similarity(String a, String b);
}
