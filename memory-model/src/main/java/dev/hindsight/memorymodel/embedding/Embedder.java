package dev.hindsight.memorymodel.embedding;

/** Turns text into a unit-length sentence embedding. Implementations are thread-safe and CPU-bound (call off the event loop). */
public interface Embedder {

    /** Stored with every vector, so vectors from different models are never compared. */
    String modelId();

    int dimensions();

    /** The text's unit vector; {@link NothingToEmbed} when the model can read nothing in it. */
    float[] embed(String text);
}
