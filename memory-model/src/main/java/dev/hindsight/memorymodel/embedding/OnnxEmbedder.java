package dev.hindsight.memorymodel.embedding;

import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.AbstractInProcessEmbeddingModel;
import dev.langchain4j.model.embedding.onnx.OnnxBertBiEncoder;
import dev.langchain4j.model.embedding.onnx.PoolingMode;
import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;
import dev.langchain4j.model.embedding.onnx.bgesmallenv15q.BgeSmallEnV15QuantizedEmbeddingModel;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * A sentence encoder in-process: a quantized ONNX model and its tokenizer ship inside a langchain4j jar on Maven
 * Central, so nothing is downloaded at run time. Two ship with Hindsight ({@link #load}): all-MiniLM-L6-v2 (the
 * default) and bge-small-en-v1.5, both 384 dimensions, the size of the vector columns. Their vectors are normalised,
 * so cosine similarity is a dot product and pgvector's cosine distance applies directly. Loading takes about a second:
 * construct one at start-up (or on first use, off the event loop).
 *
 * <p>ONNX Runtime runs each embedding on the calling thread (one intra-op thread): by default it keeps a pool of one
 * thread per core that spins between calls, which on a small machine takes cores from the event loops, PostgreSQL and
 * Kafka exactly when a request needs them. Concurrency comes from {@link Embeddings}' pool instead (one embedding per
 * core at a time).
 */
public final class OnnxEmbedder implements Embedder {

    /** all-MiniLM-L6-v2, quantized: the default model. */
    public static final String MINILM = "all-minilm-l6-v2-q";

    /**
     * bge-small-en-v1.5, quantized. It embeds queries without the instruction its model card suggests for short
     * queries: on Hindsight's retrieval benchmark the instruction made it slightly worse (docs/benchmarks.md).
     */
    public static final String BGE_SMALL = "bge-small-en-v1.5-q";

    /** The models {@link #load} knows, by the id stored with their vectors. */
    public static final List<String> MODELS = List.of(MINILM, BGE_SMALL);

    private final EmbeddingModel model;
    private final String modelId;

    /**
     * The model stored as {@code modelId}; fails for a model that does not ship, naming the ones that do (a typo in
     * {@code hindsight.memory.embedding.model} stops the start-up instead of building vectors nobody can use).
     */
    public static OnnxEmbedder load(String modelId) {
        requireShipped(modelId);
        return switch (modelId) {
            case MINILM -> new OnnxEmbedder(MINILM, AllMiniLmL6V2QuantizedEmbeddingModel.class,
                    "/all-minilm-l6-v2-q.onnx", "/all-minilm-l6-v2-q-tokenizer.json", PoolingMode.MEAN);
            case BGE_SMALL -> new OnnxEmbedder(BGE_SMALL, BgeSmallEnV15QuantizedEmbeddingModel.class,
                    "/bge-small-en-v1.5-q.onnx", "/bge-small-en-v1.5-q-tokenizer.json", PoolingMode.CLS);
            default -> throw new IllegalStateException("A shipped model without a loader: " + modelId);
        };
    }

    /** {@code modelId} if it ships with Hindsight; otherwise fails naming the ones that do (a service's start-up). */
    public static String requireShipped(String modelId) {
        if (!MODELS.contains(modelId)) {
            throw new IllegalArgumentException("No embedding model " + modelId + " ships with Hindsight; "
                    + "the ones that do: " + String.join(", ", MODELS));
        }
        return modelId;
    }

    /**
     * A BERT-family sentence encoder shipped as an ONNX model and its tokenizer, resources next to {@code anchor};
     * package-visible so the retrieval benchmark can compare candidates that do not ship.
     */
    OnnxEmbedder(String modelId, Class<?> anchor, String modelResource, String tokenizerResource, PoolingMode pooling) {
        this.modelId = modelId;
        try (InputStream onnx = resource(anchor, modelResource); InputStream tokenizer = resource(anchor, tokenizerResource)) {
            OrtEnvironment environment = OrtEnvironment.getEnvironment();
            OrtSession.SessionOptions options = new OrtSession.SessionOptions();
            options.setIntraOpNumThreads(1);
            options.setInterOpNumThreads(1);
            options.setOptimizationLevel(OrtSession.SessionOptions.OptLevel.ALL_OPT);
            OnnxBertBiEncoder encoder = new OnnxBertBiEncoder(environment,
                    environment.createSession(onnx.readAllBytes(), options), tokenizer, pooling);
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
