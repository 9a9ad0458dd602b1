package dev.hindsight.ingest.publish;

import dev.hindsight.events.HindsightTopic;
import dev.hindsight.platform.kafka.KafkaTopicsConfig;
import dev.hindsight.platform.kafka.TopicProvisioner;
import dev.hindsight.platform.registry.RegistryConfig;
import dev.hindsight.platform.registry.SchemaRegistrar;
import io.quarkus.runtime.StartupEvent;
import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.interceptor.Interceptor;
import jakarta.inject.Singleton;
import java.util.Arrays;
import java.util.List;
import org.eclipse.microprofile.config.Config;
import org.jboss.logging.Logger;

/**
 * Before ingest accepts anything: the topics it is the single writer of exist, and their value schemas are in the
 * registry under BACKWARD_TRANSITIVE compatibility. A schema the registry refuses stops the start-up.
 */
@Singleton
public class ProducerSetup {

    private static final Logger LOG = Logger.getLogger(ProducerSetup.class);

    // Before SmallRye Reactive Messaging starts the channels (it observes start-up at LIBRARY_BEFORE).
    void onStart(@Observes @Priority(Interceptor.Priority.PLATFORM_BEFORE) StartupEvent event, KafkaTopicsConfig topics, RegistryConfig registry, Config config) {
        List<String> names = Arrays.stream(HindsightTopic.values()).map(t -> topicName(config, t)).toList();
        if (topics.provisionTopics()) {
            TopicProvisioner.ensure(config.getValue("kafka.bootstrap.servers", String.class), names, List.of(),
                    topics.partitions(), topics.replicationFactor());
            LOG.infof("Topics ready: %s", names);
        }
        if (registry.registerOnStart()) {
            SchemaRegistrar registrar = new SchemaRegistrar(registry.url());
            for (HindsightTopic topic : HindsightTopic.values()) {
                registrar.register(registry.group(), topicName(config, topic) + "-value", topic.valueSchema());
            }
            LOG.infof("Schemas registered with %s compatibility", SchemaRegistrar.COMPATIBILITY);
        }
    }

    /** The channel's configured topic, so renaming a topic in configuration renames it everywhere. */
    private static String topicName(Config config, HindsightTopic topic) {
        String channel = topic.name().toLowerCase(java.util.Locale.ROOT);
        return config.getOptionalValue("mp.messaging.outgoing." + channel + ".topic", String.class)
                .orElse(topic.defaultName());
    }
}
