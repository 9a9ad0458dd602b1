package dev.hindsight.memory.embedding;

import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;

/**
 * all-MiniLM-L6-v2 (quantized ONNX, 384 dimensions) in-process: the model ships inside the langchain4j jar on Maven
 * Central, so nothing is downloaded at run time. Its vectors are normalised, so cosine similarity is a dot product
 * and pgvector's cosine distance applies directly. Loading takes about a second: construct it at start-up.
 */
public final class MiniLmEmbedder implements Embedder {

    private final EmbeddingModel model = new AllMiniLmL6V2QuantizedEmbeddingModel(Runnable::run);

    @Override
    public String modelId() {
        return "all-minilm-l6-v2-q";
    }

    @Override
    public int dimensions() {
        return 384;
    }

    @Override
    public float[] embed(String text) {
        return model.embed(text).content().vector();
    }
}
