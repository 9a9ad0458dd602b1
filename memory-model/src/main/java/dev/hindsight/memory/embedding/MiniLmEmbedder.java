package dev.hindsight.memory.embedding;

import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.AbstractInProcessEmbeddingModel;
import dev.langchain4j.model.embedding.onnx.OnnxBertBiEncoder;
import dev.langchain4j.model.embedding.onnx.PoolingMode;
import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * all-MiniLM-L6-v2 (quantized ONNX, 384 dimensions) in-process: the model and its tokenizer ship inside the
 * langchain4j jar on Maven Central, so nothing is downloaded at run time. Its vectors are normalised, so cosine
 * similarity is a dot product and pgvector's cosine distance applies directly. Loading takes about a second:
 * construct it at start-up.
 *
 * <p>ONNX Runtime runs each embedding on the calling thread (one intra-op thread): by default it keeps a pool of one
 * thread per core that spins between calls, which on a small machine takes cores from the event loops, PostgreSQL and
 * Kafka exactly when a request needs them. Concurrency comes from {@link Embeddings}' pool instead (one embedding per
 * core at a time).
 */
public final class MiniLmEmbedder implements Embedder {

    /** The id stored with its vectors. */
    public static final String MODEL_ID = "all-minilm-l6-v2-q";

    private static final String MODEL = "/all-minilm-l6-v2-q.onnx";
    private static final String TOKENIZER = "/all-minilm-l6-v2-q-tokenizer.json";

    private final EmbeddingModel model;
    private final String modelId;

    public MiniLmEmbedder() {
        this(MODEL_ID, AllMiniLmL6V2QuantizedEmbeddingModel.class, MODEL, TOKENIZER);
    }

    /**
     * Another BERT-family sentence encoder shipped the same way (an ONNX model and its tokenizer as resources next to
     * {@code anchor}), mean-pooled: how the retrieval benchmark compares candidates with the one that ships.
     */
    MiniLmEmbedder(String modelId, Class<?> anchor, String modelResource, String tokenizerResource) {
        this.modelId = modelId;
        try (InputStream onnx = resource(anchor, modelResource); InputStream tokenizer = resource(anchor, tokenizerResource)) {
            OrtEnvironment environment = OrtEnvironment.getEnvironment();
            OrtSession.SessionOptions options = new OrtSession.SessionOptions();
            options.setIntraOpNumThreads(1);
            options.setInterOpNumThreads(1);
            options.setOptimizationLevel(OrtSession.SessionOptions.OptLevel.ALL_OPT);
            OnnxBertBiEncoder encoder = new OnnxBertBiEncoder(environment,
                    environment.createSession(onnx.readAllBytes(), options), tokenizer, PoolingMode.MEAN);
            this.model = new AbstractInProcessEmbeddingModel(Runnable::run) {
                @Override
                protected OnnxBertBiEncoder model() {
                    return encoder;
                }

                @Override
                protected Integer knownDimension() {
                    return 384;
                }
            };
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the embedding model from the classpath", e);
        } catch (OrtException e) {
            throw new IllegalStateException("ONNX Runtime cannot load the embedding model", e);
        }
    }

    @Override
    public String modelId() {
        return modelId;
    }

    @Override
    public int dimensions() {
        return 384;
    }

    @Override
    public float[] embed(String text) {
        try {
            return model.embed(text).content().vector();
        } catch (IllegalArgumentException e) {
            // The model's only refusal: no token in the text (it checks after its tokenizer's normalisation).
            throw new NothingToEmbed(e);
        }
    }

    private static InputStream resource(Class<?> anchor, String name) {
        InputStream stream = anchor.getResourceAsStream(name);
        if (stream == null) {
            throw new IllegalStateException(name + " is not on the classpath (next to " + anchor.getName() + ")");
        }
        return stream;
    }
}
