package dev.hindsight.query.memory;

import dev.hindsight.memorymodel.embedding.Embeddings;
import dev.hindsight.memorymodel.embedding.OnnxEmbedder;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The embedding models the console's memory search uses: memory-service's (the same
 * {@code hindsight.memory.embedding.model}), so that a query finds the same memories in both. A model is loaded on
 * the first search that needs it (on the embedding pool, never the event loop), not at start-up: most replicas of
 * query-service never search, so their start-up does not pay for loading one.
 */
@Singleton
class MemorySearchSetup {

    @Produces
    @Singleton
    Embeddings embeddings(@ConfigProperty(name = "hindsight.memory.embedding.model",
            defaultValue = OnnxEmbedder.MINILM) String configured) {
        return new Embeddings(configured, OnnxEmbedder::load);
    }

    void close(@Disposes Embeddings embeddings) {
        embeddings.close();
    }
}
