package dev.hindsight.evaluation;

import dev.hindsight.evaluation.shadow.MiniLmSimilarity;
import dev.hindsight.evaluation.shadow.ReasoningSimilarity;
import dev.hindsight.platform.kafka.KafkaTopicsConfig;
import dev.hindsight.platform.kafka.OwnedTopics;
import dev.hindsight.platform.registry.RegistryConfig;
import io.quarkus.runtime.StartupEvent;
import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import jakarta.interceptor.Interceptor;
import org.eclipse.microprofile.config.Config;

/**
 * Start-up of evaluation-service: its two topics exist and their schemas are registered before any channel starts,
 * and the sentence-embedding model is loaded once, at start-up rather than on the first comparison.
 */
@Singleton
class EvaluationSetup {

    // Before SmallRye Reactive Messaging starts the channels (it observes start-up at LIBRARY_BEFORE).
    void onStart(@Observes @Priority(Interceptor.Priority.PLATFORM_BEFORE) StartupEvent event, KafkaTopicsConfig topics,
            RegistryConfig registry, Config config) {
        OwnedTopics.prepare("evaluation-service", topics, registry, config);
    }

    @Produces
    @Singleton
    ReasoningSimilarity reasoningSimilarity() {
        return new MiniLmSimilarity();
    }
}
