package dev.hindsight.platform.kafka;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Consumer;
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
 * Reads a whole topic, every partition, from its beginning and then as it grows, on a thread of its own, handing each
 * decoded envelope to {@code apply}: how every replica of every service learns the API keys and the data keys issued
 * anywhere. It belongs to no consumer group and commits nothing: each start reads the topic again. It has caught up
 * once it has read what the topic held when it started; {@link #readTo} asks it, later, to have read everything the
 * topic holds at that moment (what a reader does before it decides that a record does not exist). A topic that does
 * not exist yet is empty, and is looked for again every few seconds.
 */
public final class TopicFollower {

    private static final Logger LOG = Logger.getLogger(TopicFollower.class);
    private static final Duration POLL = Duration.ofMillis(500);

    private final String topic;
    private final String name;
    private final Map<String, Object> settings;
    private final Consumer<Object> apply;
    private final ConcurrentLinkedQueue<CompletableFuture<Void>> readTo = new ConcurrentLinkedQueue<>();
    /** Whether the follower is reading to the end for requests it took (and must not be woken). */
    private volatile boolean serving;
    private volatile boolean running;
    private volatile boolean caughtUp;
    private volatile KafkaConsumer<String, Decoded> consumer;
    private Thread thread;

    /**
     * @param kafka  the connector's Kafka settings (bootstrap servers, security)
     * @param apply  called on the follower's thread with each record's envelope, in each partition's order
     */
    public TopicFollower(String topic, String name, Map<String, Object> kafka, Config config, Consumer<Object> apply) {
        this.topic = topic;
        this.name = name;
        this.apply = apply;
        this.settings = consumerConfig(kafka, config, name);
    }

    public void start() {
        running = true;
        thread = new Thread(this::run, "hindsight-" + name);
        thread.setDaemon(true);
        thread.start();
    }

    public void stop() {
        running = false;
        KafkaConsumer<String, Decoded> current = consumer;
        if (current != null) {
            current.wakeup();
        }
    }

    /** Whether everything the topic held when this follower started has been read. */
    public boolean caughtUp() {
        return caughtUp;
    }

    /**
     * Completes once everything the topic holds now has been applied (at once for a topic that does not exist). The
     * follower is woken from its poll to answer: a consumer waits on this with an event in hand.
     */
    public CompletableFuture<Void> readTo() {
        CompletableFuture<Void> done = new CompletableFuture<>();
        readTo.add(done);
        KafkaConsumer<String, Decoded> current = consumer;
        // Woken only from an idle poll: a follower reading to the end for earlier requests takes this one up as soon
        // as it is done, and waking it then would start its reading over.
        if (current != null && !serving) {
            current.wakeup();
        }
        return done;
    }

    private void run() {
        while (running) {
            try (KafkaConsumer<String, Decoded> opened = new KafkaConsumer<>(settings)) {
                // Not to be woken while it finds and assigns the partitions: a wakeup there would start it over.
                serving = true;
                consumer = opened;
                follow(opened);
            } catch (WakeupException stopping) {
                return;
            } catch (RuntimeException e) {
                LOG.warnf("Reading %s failed (%s); trying again", topic, e.toString());
                pause(Duration.ofSeconds(2));
            }
        }
    }

    private void follow(KafkaConsumer<String, Decoded> opened) {
        List<PartitionInfo> partitions = opened.partitionsFor(topic, Duration.ofSeconds(10));
        if (partitions == null || partitions.isEmpty()) {
            caughtUp = true;
            drain().forEach(done -> done.complete(null));
            pause(Duration.ofSeconds(5));
            return;
        }
        List<TopicPartition> assigned = partitions.stream()
                .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
        opened.assign(assigned);
        opened.seekToBeginning(assigned);
        Map<TopicPartition, Long> atStart = opened.endOffsets(assigned);
        while (running) {
            // Asked before these polls: everything up to the end offsets read now is applied before answering.
            List<CompletableFuture<Void>> asked = drain();
            serving = !asked.isEmpty();
            try {
                if (asked.isEmpty()) {
                    poll(opened, atStart);
                } else {
                    Map<TopicPartition, Long> target = opened.endOffsets(assigned);
                    while (running && !reached(opened, target)) {
                        poll(opened, atStart);
                    }
                }
            } catch (WakeupException woken) {
                if (!running) {
                    throw woken;
                }
                // Woken by a request to read to the end: those in hand are asked again, with a new target.
                readTo.addAll(asked);
                continue;
            } finally {
                serving = false;
            }
            asked.forEach(done -> done.complete(null));
        }
    }

    private void poll(KafkaConsumer<String, Decoded> opened, Map<TopicPartition, Long> atStart) {
        for (ConsumerRecord<String, Decoded> record : opened.poll(POLL)) {
            Decoded decoded = record.value();
            if (decoded.envelope() != null) {
                apply.accept(decoded.envelope());
            } else {
                LOG.errorf(decoded.failure(), "Skipping unreadable event at %s-%d@%d", record.topic(),
                        record.partition(), record.offset());
            }
        }
        if (!caughtUp && reached(opened, atStart)) {
            caughtUp = true;
            LOG.infof("%s read to its end", topic);
        }
    }

    private static boolean reached(KafkaConsumer<String, Decoded> opened, Map<TopicPartition, Long> offsets) {
        return offsets.entrySet().stream().allMatch(e -> opened.position(e.getKey()) >= e.getValue());
    }

    private List<CompletableFuture<Void>> drain() {
        List<CompletableFuture<Void>> asked = new java.util.ArrayList<>();
        for (CompletableFuture<Void> next = readTo.poll(); next != null; next = readTo.poll()) {
            asked.add(next);
        }
        return asked;
    }

    static Map<String, Object> consumerConfig(Map<String, Object> kafka, Config config, String name) {
        Map<String, Object> settings = SealedEnvelopes.serdeSettings(kafka, config);
        settings.put(ConsumerConfig.CLIENT_ID_CONFIG, "hindsight-" + name + "-"
                + config.getOptionalValue("quarkus.application.name", String.class).orElse("service"));
        settings.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        settings.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        settings.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        settings.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, DecodingDeserializer.class);
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
