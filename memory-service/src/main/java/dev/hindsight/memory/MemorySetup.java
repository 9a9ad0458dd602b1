package dev.hindsight.memory;

import dev.hindsight.memory.bank.VectorKeeper;
import dev.hindsight.memory.config.MemoryConfig;
import dev.hindsight.memorymodel.embedding.Embeddings;
import dev.hindsight.memorymodel.embedding.OnnxEmbedder;
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
import java.time.Duration;
import org.eclipse.microprofile.config.Config;

/**
 * Start-up of memory-service: hindsight.memory.v1 exists and its schema is registered before any channel starts, and
 * the embedding model is loaded (and run once) at start-up rather than on the first request, as is the previous one
 * while searches still use it (design.md § Re-embedding).
 */
@Singleton
class MemorySetup {

    // Before SmallRye Reactive Messaging starts the channels (it observes start-up at LIBRARY_BEFORE).
    void onStart(@Observes @Priority(Interceptor.Priority.PLATFORM_BEFORE) StartupEvent event, KafkaTopicsConfig topics,
            RegistryConfig registry, Config config, Embeddings embeddings, VectorKeeper generations) {
        OwnedTopics.prepare("memory-service", topics, registry, config);
        embeddings.warm(embeddings.preferred());
        generations.refresh().await().atMost(Duration.ofSeconds(30));   // the first search uses the right model
        if (!generations.searchModel().equals(embeddings.preferred())) {
            embeddings.warm(generations.searchModel());   // searches use the previous model while the new one builds
        }
    }

    @Produces
    @Singleton
    Embeddings embeddings(MemoryConfig memory) {
        return new Embeddings(memory.embedding().model(), OnnxEmbedder::load);
    }

    void close(@Disposes Embeddings embeddings) {
        embeddings.close();
    }
}
