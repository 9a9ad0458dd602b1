package dev.hindsight.platform.consumer;

import dev.hindsight.platform.kafka.Decoded;
import dev.hindsight.platform.kafka.KafkaTopicsConfig;
import dev.hindsight.platform.redact.Redactor;
import io.micrometer.core.instrument.Metrics;
import io.smallrye.common.annotation.Identifier;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.jboss.logging.Logger;

/**
 * Sends a poison record to its dead-letter topic exactly as it was stored (same key, bytes and headers, so it stays
 * readable with the source topic's schema), with why and where from in headers named as SmallRye's dead-letter
 * queue names them. A projection acknowledges the record only once Kafka acknowledged its dead letter. Each dead
 * letter is counted ({@code hindsight_dead_letters_total} by source and dead-letter topic).
 */
@ApplicationScoped
public class DeadLetters {

    private static final Logger LOG = Logger.getLogger(DeadLetters.class);

    private final Map<String, Object> kafka;
    private volatile KafkaProducer<String, byte[]> producer;

    /**
     * @param kafka every {@code kafka.*} setting (KAFKA_* variables included) as Quarkus gives it to the channels:
     *              bootstrap servers and, on Kubernetes, the TLS and SASL settings without which the broker refuses us
     */
    public DeadLetters(@Identifier("default-kafka-broker") Map<String, Object> kafka, KafkaTopicsConfig topics) {
        this.kafka = new HashMap<>(kafka);
        this.kafka.remove("group.id");
        // A dead letter is the event as it was stored: it may be as large as any event (docs/design.md, "The
        // largest event").
        this.kafka.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, topics.maxMessageBytes());
    }

    public Uni<Void> send(String deadLetterTopic, ConsumerRecord<String, Decoded> record, Throwable reason) {
        ProducerRecord<String, byte[]> letter = new ProducerRecord<>(deadLetterTopic, record.key(),
                record.value() == null ? null : record.value().raw());
        for (Header header : record.headers()) {
            letter.headers().add(header);
        }
        // An error's message may quote what a producer sent: its secrets never reach the dead-letter topic or the log.
        String cause = reason.getCause() == null ? "" : Redactor.operational(String.valueOf(reason.getCause()));
        String message = Redactor.operational(String.valueOf(reason.getMessage()));
        letter.headers()
                .add("dead-letter-reason", utf8(message))
                .add("dead-letter-cause", utf8(cause))
                .add("dead-letter-exception-class-name", utf8(reason.getClass().getName()))
                .add("dead-letter-topic", utf8(record.topic()))
                .add("dead-letter-partition", utf8(Integer.toString(record.partition())))
                .add("dead-letter-offset", utf8(Long.toString(record.offset())));
        LOG.warnf("Dead-lettering %s-%d@%d to %s: %s: %s", record.topic(), record.partition(), record.offset(),
                deadLetterTopic, reason.getClass().getName(), message);
        // send() may block on metadata: never on the event loop.
        return Uni.createFrom().<Void>emitter(emitter -> producer().send(letter, (metadata, failure) -> {
            if (failure == null) {
                Metrics.counter("hindsight.dead.letters", "topic", record.topic(), "dead_letter_topic", deadLetterTopic)
                        .increment();
                emitter.complete(null);
            } else {
                emitter.fail(failure);
            }
        })).runSubscriptionOn(Infrastructure.getDefaultWorkerPool());
    }

    private KafkaProducer<String, byte[]> producer() {
        KafkaProducer<String, byte[]> current = producer;
        if (current == null) {
            synchronized (this) {
                if (producer == null) {
                    Map<String, Object> config = new HashMap<>(kafka);
                    config.put(ProducerConfig.ACKS_CONFIG, "all");
                    config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
                    config.put(ProducerConfig.CLIENT_ID_CONFIG, "hindsight-dead-letters");
                    producer = new KafkaProducer<>(config, new StringSerializer(), new ByteArraySerializer());
                }
                current = producer;
            }
        }
        return current;
    }

    private static byte[] utf8(String value) {
        return value.getBytes(StandardCharsets.UTF_8);
    }

    @PreDestroy
    void close() {
        if (producer != null) {
            producer.close(Duration.ofSeconds(5));
        }
    }
}
