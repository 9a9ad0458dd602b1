package dev.hindsight.platform.kafka;

import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.OutgoingMessageMetadata;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import java.util.List;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * Sends keyed events through an emitter and completes only when Kafka acknowledged them (acks=all), yielding a
 * {@link Receipt} per event. Sends of one request are issued together so the producer batches them; nothing waits
 * on one event before sending the next.
 */
public final class Publisher {

    private Publisher() {
    }

    /** One keyed event to publish. */
    public record Outgoing<T>(String key, T value, String eventId) {
    }

    public static <T> Uni<Receipt> publish(MutinyEmitter<T> emitter, Outgoing<T> event) {
        OutgoingMessageMetadata<RecordMetadata> result = new OutgoingMessageMetadata<>();
        Message<T> message = Message.of(event.value())
                .addMetadata(OutgoingKafkaRecordMetadata.<String>builder().withKey(event.key()).build())
                .addMetadata(result);
        return emitter.sendMessage(message).map(ignored -> {
            RecordMetadata written = result.getResult();
            return new Receipt(event.eventId(), written.topic(), written.partition(), written.offset());
        });
    }

    /** Publishes all events concurrently; the receipts come back in the order of {@code events}. */
    public static <T> Uni<List<Receipt>> publishAll(MutinyEmitter<T> emitter, List<Outgoing<T>> events) {
        if (events.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        List<Uni<Receipt>> sends = events.stream().map(e -> publish(emitter, e)).toList();
        return Uni.join().all(sends).andFailFast();
    }
}
