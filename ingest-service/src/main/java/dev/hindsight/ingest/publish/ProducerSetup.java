package dev.hindsight.ingest.publish;

import dev.hindsight.platform.kafka.KafkaTopicsConfig;
import dev.hindsight.platform.kafka.OwnedTopics;
import dev.hindsight.platform.registry.RegistryConfig;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.runtime.configuration.MemorySize;
import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.interceptor.Interceptor;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.Config;

/**
 * Before ingest accepts anything: the source topics it is the single writer of exist, and their value schemas are in
 * the registry under BACKWARD_TRANSITIVE compatibility. A schema the registry refuses stops the start-up, and so does a
 * body limit the topics cannot hold: an event is at most about as large as the body that carried it, so with the body
 * limit below the largest event every accepted request fits the event log.
 */
@Singleton
class ProducerSetup {

    /** What an event adds to the request text it came from: its header, derived ids, Avro framing. */
    static final long ENVELOPE_ROOM = 64 * 1024;

    // Before SmallRye Reactive Messaging starts the channels (it observes start-up at LIBRARY_BEFORE).
    void onStart(@Observes @Priority(Interceptor.Priority.PLATFORM_BEFORE) StartupEvent event, KafkaTopicsConfig topics,
            RegistryConfig registry, Config config) {
        long bodyLimit = config.getOptionalValue("quarkus.http.limits.max-body-size", MemorySize.class)
                .map(MemorySize::asLongValue).orElse(Long.MAX_VALUE);
        if (bodyLimit + ENVELOPE_ROOM > topics.maxMessageBytes()) {
            throw new IllegalStateException("quarkus.http.limits.max-body-size (" + bodyLimit + " bytes) leaves no "
                    + "room below hindsight.kafka.max-message-bytes (" + topics.maxMessageBytes() + "): an accepted "
                    + "request could carry an event the topics refuse. Raise the second or lower the first.");
        }
        OwnedTopics.prepare("ingest-service", topics, registry, config);
    }
}
