package dev.hindsight.platform.kafka;

import dev.hindsight.events.HindsightTopic;
import dev.hindsight.platform.registry.RegistryConfig;
import dev.hindsight.platform.registry.SchemaRegistrar;
import io.quarkus.runtime.StartupEvent;
import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.interceptor.Interceptor;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.eclipse.microprofile.config.Config;
import org.jboss.logging.Logger;

/**
 * Before the consumers start, every incoming channel that dead-letters has its dead-letter topic, and that topic's
 * value schema is the source topic's envelope. A dead letter is then the original event, readable with the same
 * schema, with the failure reason and its source topic, partition and offset in the headers.
 */
@Singleton
class DeadLetterTopicSetup {

    private static final Logger LOG = Logger.getLogger(DeadLetterTopicSetup.class);
    private static final String PREFIX = "mp.messaging.incoming.";
    private static final String SUFFIX = ".dead-letter-queue.topic";

    /** A channel's source topic and where its dead letters go. */
    record DeadLetter(String sourceTopic, String deadLetterTopic) {
    }

    // Before SmallRye Reactive Messaging starts the channels (it observes start-up at LIBRARY_BEFORE).
    void onStart(@Observes @Priority(Interceptor.Priority.PLATFORM_BEFORE) StartupEvent event, KafkaTopicsConfig topics, RegistryConfig registry, Config config) {
        List<DeadLetter> deadLetters = deadLetters(config);
        if (deadLetters.isEmpty()) {
            return;
        }
        if (topics.provisionTopics()) {
            TopicProvisioner.ensure(config.getValue("kafka.bootstrap.servers", String.class), List.of(),
                    deadLetters.stream().map(DeadLetter::deadLetterTopic).toList(), topics.partitions(),
                    topics.replicationFactor(), topics.maxMessageBytes());
        }
        if (registry.registerOnStart()) {
            SchemaRegistrar registrar = new SchemaRegistrar(registry.url());
            for (DeadLetter deadLetter : deadLetters) {
                Optional<HindsightTopic> source = HindsightTopic.byName(deadLetter.sourceTopic());
                source.ifPresent(topic -> registrar.register(registry.group(),
                        deadLetter.deadLetterTopic() + "-value", topic.valueSchema()));
            }
        }
        LOG.infof("Dead-letter topics ready: %s", deadLetters);
    }

    static List<DeadLetter> deadLetters(Config config) {
        List<DeadLetter> found = new ArrayList<>();
        for (String name : config.getPropertyNames()) {
            if (name.startsWith(PREFIX) && name.endsWith(SUFFIX)) {
                String channel = name.substring(PREFIX.length(), name.length() - SUFFIX.length());
                String strategy = config.getOptionalValue(PREFIX + channel + ".failure-strategy", String.class)
                        .orElse("fail");
                if ("dead-letter-queue".equals(strategy)) {
                    String source = config.getOptionalValue(PREFIX + channel + ".topic", String.class).orElse(channel);
                    found.add(new DeadLetter(source, config.getValue(name, String.class)));
                }
            }
        }
        return found;
    }
}
