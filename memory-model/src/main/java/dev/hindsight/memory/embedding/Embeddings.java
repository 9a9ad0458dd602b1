package dev.hindsight.memory.embedding;

import io.smallrye.mutiny.Uni;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/**
 * Runs an {@link Embedder} on its own small pool (one thread per core): embedding is CPU-bound, must never run on
 * the event loop, and should not queue behind blocking work on the shared worker pool. A service makes one at
 * start-up and closes it at shut-down.
 */
public final class Embeddings implements AutoCloseable {

    private final Supplier<Embedder> embedder;
    private final String modelId;
    private final ExecutorService pool;

    /** Embeddings by a model already loaded. */
    public Embeddings(Embedder embedder) {
        this(() -> embedder, embedder.modelId());
    }

    /**
     * Embeddings by a model loaded on first use, on this pool (never on the caller's thread): for a service that
     * embeds rarely, such as the console's search in query-service, which should not load a model to start.
     */
    public Embeddings(Supplier<Embedder> embedder, String modelId) {
        this.embedder = embedder;
        this.modelId = modelId;
        int threads = Math.max(1, Runtime.getRuntime().availableProcessors());
        this.pool = Executors.newFixedThreadPool(threads, runnable -> {
            Thread thread = new Thread(runnable, "hindsight-embedding");
            thread.setDaemon(true);
            return thread;
        });
    }

    /** Stored with every vector, so vectors from different models are never compared. */
    public String modelId() {
        return modelId;
    }

    public Uni<float[]> embed(String text) {
        return Uni.createFrom().item(() -> embedder.get().embed(text)).runSubscriptionOn(pool);
    }

    @Override
    public void close() {
        pool.shutdownNow();
    }
}
