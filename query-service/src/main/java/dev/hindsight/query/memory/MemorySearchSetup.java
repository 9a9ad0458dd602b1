package dev.hindsight.query.memory;

import dev.hindsight.memory.embedding.Embedder;
import dev.hindsight.memory.embedding.Embeddings;
import dev.hindsight.memory.embedding.MiniLmEmbedder;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/**
 * The embedding model the console's memory search uses: memory-service's, so that a query finds the same memories
 * in both. It is loaded on the first search (on the embedding pool, never the event loop), not at start-up: most
 * replicas of query-service never search, so their start-up does not pay for loading a model.
 */
@Singleton
public class MemorySearchSetup {

    @Produces
    @Singleton
    Embeddings embeddings() {
        return new Embeddings(new Lazy(), MiniLmEmbedder.MODEL_ID);
    }

    void close(@Disposes Embeddings embeddings) {
        embeddings.close();
    }

    /** Loads the model once, on the first thread that needs it. */
    private static final class Lazy implements java.util.function.Supplier<Embedder> {

        private volatile Embedder model;

        @Override
        public Embedder get() {
            Embedder loaded = model;
            if (loaded == null) {
                synchronized (this) {
                    loaded = model;
                    if (loaded == null) {
                        loaded = new MiniLmEmbedder();
                        model = loaded;
                    }
                }
            }
            return loaded;
        }
    }
}
