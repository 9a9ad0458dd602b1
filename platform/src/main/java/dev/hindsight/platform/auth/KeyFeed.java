package dev.hindsight.platform.auth;

import dev.hindsight.events.HindsightTopic;
import dev.hindsight.events.keys.KeyEvent;
import dev.hindsight.platform.kafka.Decoded;
import dev.hindsight.platform.kafka.DecodingDeserializer;
import dev.hindsight.platform.kafka.OwnedTopics;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.common.annotation.Identifier;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.eclipse.microprofile.config.Config;
import org.jboss.logging.Logger;

/**
 * Reads all of {@code hindsight.keys.v1} into the {@link KeyRing}, from its beginning and then as it grows, on every
 * replica of every service: a key issued, rotated or revoked on one replica takes effect on all of them within a
 * poll (half a second). It belongs to no consumer group (every replica must see every key) and commits nothing:
 * each start reads the topic again, which stays small (one event per change of a key). Until it has read what the
 * topic held at start-up, the service is not ready ({@code KeyFeedCheck}); a topic that does not exist yet holds no
 * key.
 */
@ApplicationScoped
class KeyFeed {

    private static final Logger LOG = Logger.getLogger(KeyFeed.class);
    private static final Duration POLL = Duration.ofMillis(500);

    private final KeyRing ring;
    private final Map<String, Object> kafka;
    private final Config config;
    private volatile boolean running;
    private volatile boolean caughtUp;
    private volatile KafkaConsumer<String, Decoded> consumer;
    private Thread thread;

    public KeyFeed(KeyRing ring, @Identifier("default-kafka-broker") Map<String, Object> kafka, Config config) {
        this.ring = ring;
        this.kafka = kafka;
        this.config = config;
    }

    void onStart(@Observes StartupEvent event) {
        running = true;
        thread = new Thread(this::run, "hindsight-key-feed");
        thread.setDaemon(true);
        thread.start();
    }

    void onStop(@Observes ShutdownEvent event) {
        running = false;
        KafkaConsumer<String, Decoded> current = consumer;
        if (current != null) {
            current.wakeup();
        }
    }

    /** Whether every key the topic held when this service started has been read. */
    public boolean caughtUp() {
        return caughtUp;
    }

    private void run() {
        String topic = OwnedTopics.name(config, HindsightTopic.KEYS);
        while (running) {
            try (KafkaConsumer<String, Decoded> opened = new KafkaConsumer<>(consumerConfig())) {
                consumer = opened;
                follow(opened, topic);
            } catch (WakeupException stopping) {
                return;
            } catch (RuntimeException e) {
                LOG.warnf("Reading %s failed (%s); trying again", topic, e.toString());
                pause(Duration.ofSeconds(2));
            }
        }
    }

    private void follow(KafkaConsumer<String, Decoded> opened, String topic) {
        List<PartitionInfo> partitions = opened.partitionsFor(topic, Duration.ofSeconds(10));
        if (partitions == null || partitions.isEmpty()) {
            // No key was ever issued where the topic does not exist; look again later.
            caughtUp = true;
            pause(Duration.ofSeconds(5));
            return;
        }
        List<TopicPartition> assigned = partitions.stream()
                .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
        opened.assign(assigned);
        opened.seekToBeginning(assigned);
        Map<TopicPartition, Long> atStart = opened.endOffsets(assigned);
        while (running) {
            for (ConsumerRecord<String, Decoded> record : opened.poll(POLL)) {
                Decoded decoded = record.value();
                if (decoded.envelope() instanceof KeyEvent key) {
                    ring.apply(key);
                } else {
                    LOG.errorf(decoded.failure(), "Skipping unreadable key event at %s-%d@%d", record.topic(),
                            record.partition(), record.offset());
                }
            }
            if (!caughtUp && atStart.entrySet().stream().allMatch(e -> opened.position(e.getKey()) >= e.getValue())) {
                caughtUp = true;
                LOG.infof("API keys issued at run time read from %s", topic);
            }
        }
    }

    private Map<String, Object> consumerConfig() {
        Map<String, Object> settings = new HashMap<>(kafka);
        settings.put(ConsumerConfig.CLIENT_ID_CONFIG, "hindsight-key-feed-"
                + config.getOptionalValue("quarkus.application.name", String.class).orElse("service"));
        settings.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        settings.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        settings.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        settings.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, DecodingDeserializer.class);
        String prefix = "mp.messaging.connector.smallrye-kafka.";
        for (String name : config.getPropertyNames()) {
            if (name.startsWith(prefix + "apicurio.")) {
                settings.put(name.substring(prefix.length()), config.getValue(name, String.class));
            }
        }
        return settings;
    }

    private void pause(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            running = false;
        }
    }
}
