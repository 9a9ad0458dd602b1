package dev.hindsight.memory.embedding;

import io.smallrye.mutiny.Uni;
import jakarta.annotation.PreDestroy;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Runs the {@link Embedder} on its own small pool (one thread per core): embedding is CPU-bound, must never run on
 * the event loop, and should not queue behind blocking work on the shared worker pool.
 */
@jakarta.inject.Singleton
public class Embeddings {

    private final Embedder embedder;
    private final ExecutorService pool;

    public Embeddings(Embedder embedder) {
        this.embedder = embedder;
        int threads = Math.max(1, Runtime.getRuntime().availableProcessors());
        this.pool = Executors.newFixedThreadPool(threads, runnable -> {
            Thread thread = new Thread(runnable, "hindsight-embedding");
            thread.setDaemon(true);
            return thread;
        });
    }

    public String modelId() {
        return embedder.modelId();
    }

    public Uni<float[]> embed(String text) {
        return Uni.createFrom().item(() -> embedder.embed(text)).runSubscriptionOn(pool);
    }

    /** Cosine similarity of two vectors (the model's vectors are unit length, but this does not rely on it). */
    public static double cosine(float[] a, float[] b) {
        double dot = 0, na = 0, nb = 0;
        for (int i = 0; i < a.length; i++) {
            dot += a[i] * b[i];
            na += a[i] * a[i];
            nb += b[i] * b[i];
        }
        return na == 0 || nb == 0 ? 0 : dot / Math.sqrt(na * nb);
    }

    @PreDestroy
    void close() {
        pool.shutdownNow();
    }
}
