package dev.hindsight.platform.consumer;

import dev.hindsight.platform.kafka.Decoded;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Sends a poison record to its dead-letter topic exactly as it was stored (same key, bytes and headers, so it stays
 * readable with the source topic's schema), with why and where from in headers named as SmallRye's dead-letter
 * queue names them. A projection acknowledges the record only once Kafka acknowledged its dead letter.
 */
@ApplicationScoped
public class DeadLetters {

    private static final Logger LOG = Logger.getLogger(DeadLetters.class);

    private final String bootstrapServers;
    private volatile KafkaProducer<String, byte[]> producer;

    public DeadLetters(@ConfigProperty(name = "kafka.bootstrap.servers") String bootstrapServers) {
        this.bootstrapServers = bootstrapServers;
    }

    public Uni<Void> send(String deadLetterTopic, ConsumerRecord<String, Decoded> record, Throwable reason) {
        ProducerRecord<String, byte[]> letter = new ProducerRecord<>(deadLetterTopic, record.key(),
                record.value() == null ? null : record.value().raw());
        for (Header header : record.headers()) {
            letter.headers().add(header);
        }
        String cause = reason.getCause() == null ? "" : String.valueOf(reason.getCause());
        letter.headers()
                .add("dead-letter-reason", utf8(String.valueOf(reason.getMessage())))
                .add("dead-letter-cause", utf8(cause))
                .add("dead-letter-exception-class-name", utf8(reason.getClass().getName()))
                .add("dead-letter-topic", utf8(record.topic()))
                .add("dead-letter-partition", utf8(Integer.toString(record.partition())))
                .add("dead-letter-offset", utf8(Long.toString(record.offset())));
        LOG.warnf("Dead-lettering %s-%d@%d to %s: %s", record.topic(), record.partition(), record.offset(),
                deadLetterTopic, reason.toString());
        // send() may block on metadata: never on the event loop.
        return Uni.createFrom().<Void>emitter(emitter -> producer().send(letter, (metadata, failure) -> {
            if (failure == null) {
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
                    producer = new KafkaProducer<>(Map.of(
                            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                            ProducerConfig.ACKS_CONFIG, "all",
                            ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
                            ProducerConfig.CLIENT_ID_CONFIG, "hindsight-dead-letters"),
                            new StringSerializer(), new ByteArraySerializer());
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
