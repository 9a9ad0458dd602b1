package dev.hindsight.platform.kafka;

import dev.hindsight.events.HindsightTopic;
import dev.hindsight.platform.registry.RegistryConfig;
import dev.hindsight.platform.registry.SchemaRegistrar;
import java.util.List;
import java.util.Locale;
import org.eclipse.microprofile.config.Config;
import org.jboss.logging.Logger;

/**
 * Before a service publishes anything: the topics it is the single writer of exist, and their value schemas are in
 * the registry under BACKWARD_TRANSITIVE compatibility. A schema the registry refuses stops the start-up. A topic's
 * name is its outgoing channel's configured topic ({@code mp.messaging.outgoing.<topic enum, lower case>.topic}), so
 * renaming it in configuration renames it everywhere.
 */
public final class OwnedTopics {

    private static final Logger LOG = Logger.getLogger(OwnedTopics.class);

    private OwnedTopics() {
    }

    /** Provisions and registers every topic {@code writer} owns, as configured. Safe on every start-up. */
    public static void prepare(String writer, KafkaTopicsConfig topics, RegistryConfig registry, Config config) {
        List<HindsightTopic> owned = HindsightTopic.writtenBy(writer);
        List<String> names = owned.stream().map(t -> name(config, t)).toList();
        if (topics.provisionTopics()) {
            List<String> compacted = owned.stream().filter(HindsightTopic::compacted).map(t -> name(config, t))
                    .toList();
            TopicProvisioner.ensure(config.getValue("kafka.bootstrap.servers", String.class), names, List.of(),
                    topics.partitions(), topics.replicationFactor(), topics.maxMessageBytes(), compacted);
            LOG.infof("Topics ready: %s", names);
        }
        if (registry.registerOnStart()) {
            SchemaRegistrar registrar = new SchemaRegistrar(registry.url());
            for (HindsightTopic topic : owned) {
                registrar.register(registry.group(), name(config, topic) + "-value", topic.valueSchema());
            }
            LOG.infof("Schemas of %s registered with %s compatibility", names, SchemaRegistrar.COMPATIBILITY);
        }
    }

    /** The outgoing channel's configured topic, or the topic's default name. */
    public static String name(Config config, HindsightTopic topic) {
        return config.getOptionalValue("mp.messaging.outgoing." + topic.name().toLowerCase(Locale.ROOT) + ".topic",
                String.class).orElse(topic.defaultName());
    }
}
