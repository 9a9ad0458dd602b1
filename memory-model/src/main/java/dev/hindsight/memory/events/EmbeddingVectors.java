package dev.hindsight.memory.events;

import dev.hindsight.events.memory.Embedding;
import java.util.List;

/** An event's embedding as the float array the vector stores take. */
public final class EmbeddingVectors {

    private EmbeddingVectors() {
    }

    public static float[] of(Embedding embedding) {
        List<Float> values = embedding.getVector();
        float[] vector = new float[values.size()];
        for (int i = 0; i < vector.length; i++) {
            vector[i] = values.get(i);
        }
        return vector;
    }
}
