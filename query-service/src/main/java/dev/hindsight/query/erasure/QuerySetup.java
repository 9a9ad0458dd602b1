package dev.hindsight.query.erasure;

import dev.hindsight.platform.kafka.KafkaTopicsConfig;
import dev.hindsight.platform.kafka.OwnedTopics;
import dev.hindsight.platform.registry.RegistryConfig;
import io.quarkus.runtime.StartupEvent;
import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import jakarta.interceptor.Interceptor;
import org.eclipse.microprofile.config.Config;

/**
 * query-service writes one topic, the erasure log (that it applied an erasure): it exists and its schema is
 * registered before any channel starts.
 */
@Singleton
class QuerySetup {

    // Before SmallRye Reactive Messaging starts the channels (it observes start-up at LIBRARY_BEFORE).
    void onStart(@Observes @Priority(Interceptor.Priority.PLATFORM_BEFORE) StartupEvent event, KafkaTopicsConfig topics,
            RegistryConfig registry, Config config) {
        OwnedTopics.prepare("query-service", topics, registry, config);
    }
}
