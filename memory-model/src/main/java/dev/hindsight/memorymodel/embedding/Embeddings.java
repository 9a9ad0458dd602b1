package dev.hindsight.memorymodel.embedding;

import io.smallrye.mutiny.Uni;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;

/**
 * The embedding models a service uses, run on their own small pool (one thread per core): embedding is CPU-bound,
 * must never run on the event loop, and should not queue behind blocking work on the shared worker pool. A model is
 * loaded on first use, on this pool (never on the caller's thread), and kept: while a new vector generation builds
 * (design.md § Re-embedding) a service embeds with two. A service makes one at start-up and closes it at shut-down.
 */
public final class Embeddings implements AutoCloseable {

    private final String preferred;
    private final Function<String, ? extends Embedder> loader;
    private final Map<String, Embedder> loaded = new ConcurrentHashMap<>();
    private final ExecutorService pool;
    private final ExecutorService background;

    /**
     * @param preferred the model the service is configured with: new vector generations are built with it
     * @param loader loads a model by id (slow: called once per model, on the pool)
     */
    public Embeddings(String preferred, Function<String, ? extends Embedder> loader) {
        this.preferred = preferred;
        this.loader = loader;
        int cores = Runtime.getRuntime().availableProcessors();
        this.pool = pool(Math.max(1, cores), "hindsight-embedding");
        this.background = pool(Math.max(1, cores / 2), "hindsight-embedding-background");
    }

    private static ExecutorService pool(int threads, String name) {
        return Executors.newFixedThreadPool(threads, runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        });
    }

    /** The configured model's id; the model that searches use may still be the previous one while it builds. */
    public String preferred() {
        return preferred;
    }

    /** {@code text}'s vector by model {@code modelId}, stored with that id so no two models' vectors are compared. */
    public Uni<float[]> embed(String modelId, String text) {
        return Uni.createFrom().item(() -> model(modelId).embed(text)).runSubscriptionOn(pool);
    }

    /**
     * {@link #embed} for bulk work nobody waits on (building a vector generation): on a pool of its own with half the
     * cores, so a request's embedding never queues behind a batch and the bulk work leaves cores to requests.
     */
    public Uni<float[]> embedInBackground(String modelId, String text) {
        return Uni.createFrom().item(() -> model(modelId).embed(text)).runSubscriptionOn(background);
    }

    /** Loads {@code modelId} now, on the calling thread, and runs it once (start-up, so no request pays for it). */
    public void warm(String modelId) {
        model(modelId).embed("warm up");
    }

    private Embedder model(String modelId) {
        return loaded.computeIfAbsent(modelId, loader);
    }

    @Override
    public void close() {
        pool.shutdownNow();
        background.shutdownNow();
    }
}
