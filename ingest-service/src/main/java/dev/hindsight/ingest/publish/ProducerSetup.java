package dev.hindsight.ingest.publish;

import dev.hindsight.platform.kafka.KafkaTopicsConfig;
import dev.hindsight.platform.kafka.OwnedTopics;
import dev.hindsight.platform.registry.RegistryConfig;
import io.quarkus.runtime.StartupEvent;
import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.interceptor.Interceptor;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.Config;

/**
 * Before ingest accepts anything: the source topics it is the single writer of exist, and their value schemas are in
 * the registry under BACKWARD_TRANSITIVE compatibility. A schema the registry refuses stops the start-up.
 */
@Singleton
public class ProducerSetup {

    // Before SmallRye Reactive Messaging starts the channels (it observes start-up at LIBRARY_BEFORE).
    void onStart(@Observes @Priority(Interceptor.Priority.PLATFORM_BEFORE) StartupEvent event, KafkaTopicsConfig topics,
            RegistryConfig registry, Config config) {
        OwnedTopics.prepare("ingest-service", topics, registry, config);
    }
}
