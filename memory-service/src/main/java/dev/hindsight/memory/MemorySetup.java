package dev.hindsight.memory;

import dev.hindsight.memory.embedding.Embedder;
import dev.hindsight.memory.embedding.Embeddings;
import dev.hindsight.memory.embedding.MiniLmEmbedder;
import dev.hindsight.platform.kafka.KafkaTopicsConfig;
import dev.hindsight.platform.kafka.OwnedTopics;
import dev.hindsight.platform.registry.RegistryConfig;
import io.quarkus.runtime.StartupEvent;
import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import jakarta.interceptor.Interceptor;
import org.eclipse.microprofile.config.Config;

/**
 * Start-up of memory-service: hindsight.memory.v1 exists and its schema is registered before any channel starts, and
 * the embedding model is loaded (and run once) at start-up rather than on the first request.
 */
@Singleton
public class MemorySetup {

    // Before SmallRye Reactive Messaging starts the channels (it observes start-up at LIBRARY_BEFORE).
    void onStart(@Observes @Priority(Interceptor.Priority.PLATFORM_BEFORE) StartupEvent event, KafkaTopicsConfig topics,
            RegistryConfig registry, Config config, Embedder embedder) {
        OwnedTopics.prepare("memory-service", topics, registry, config);
        embedder.embed("warm up");
    }

    @Produces
    @Singleton
    Embedder embedder() {
        return new MiniLmEmbedder();
    }

    @Produces
    @Singleton
    Embeddings embeddings(Embedder embedder) {
        return new Embeddings(embedder);
    }

    void close(@Disposes Embeddings embeddings) {
        embeddings.close();
    }
}
