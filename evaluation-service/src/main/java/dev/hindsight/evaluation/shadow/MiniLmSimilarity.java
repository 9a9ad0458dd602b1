package dev.hindsight.evaluation.shadow;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;
import dev.langchain4j.store.embedding.CosineSimilarity;

/**
 * {@link ReasoningSimilarity} from all-MiniLM-L6-v2 (quantized, 384 dimensions) run in-process by ONNX Runtime.
 *
 * <p>The model ships inside the langchain4j jar, so nothing is downloaded at run time. Constructing the first instance
 * loads it (about a second); ONNX Runtime and DJL's tokenizer unpack their native libraries on first use, DJL's into
 * {@code ~/.djl.ai} unless {@code DJL_CACHE_DIR} is set. Thread-safe; one instance per application is enough.
 */
public final class MiniLmSimilarity implements ReasoningSimilarity {

    private final EmbeddingModel model;

    /** Recorded with each comparison that used this model. */
    public String modelId() {
        return "all-minilm-l6-v2-q";
    }

    public MiniLmSimilarity() {
        // A same-thread executor: texts are embedded one at a time, and no idle thread pool is left behind.
        this.model = new AllMiniLmL6V2QuantizedEmbeddingModel(Runnable::run);
    }

    @Override
    public double similarity(String a, String b) {
        Embedding first = model.embed(a).content();
        Embedding second = model.embed(b).content();
        return CosineSimilarity.between(first, second);
    }
}
