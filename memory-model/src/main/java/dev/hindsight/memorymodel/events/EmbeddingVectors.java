package dev.hindsight.memorymodel.events;

import dev.hindsight.events.memory.Embedding;
import java.util.ArrayList;
import java.util.List;

/** An event's embedding as the float array the vector stores take, and back. */
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

    /** The event field for {@code vector}, made by model {@code modelId}. */
    public static Embedding embedding(String modelId, float[] vector) {
        List<Float> values = new ArrayList<>(vector.length);
        for (float v : vector) {
            values.add(v);
        }
        return Embedding.newBuilder().setModelId(modelId).setVector(values).build();
    }
}
