package dev.hindsight.platform.kafka;

import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.KafkaProducer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Sends keyed events and completes only when Kafka acknowledged all of them, with a {@link Receipt} per event. All
 * of a call's records are handed to the channel's producer in one hop to its sending thread (never blocking the
 * event loop, even when the producer must wait for metadata or buffer space), so the producer batches them; one
 * SmallRye emitter message per event cost more than serializing it (docs/benchmarks.md).
 */
public final class Publisher {

    private Publisher() {
    }

    /** One keyed event to publish; {@code eventId} is echoed in its receipt. */
    public record Outgoing<T>(String key, T value, String eventId) {
    }

    /** Publishes {@code events} to {@code topic}; the receipts come back in the order of {@code events}. */
    public static <T> Uni<List<Receipt>> sendAll(KafkaProducer<String, T> producer, String topic,
            List<Outgoing<T>> events) {
        if (events.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return producer.runOnSendingThread(kafka -> {
            List<CompletableFuture<Receipt>> sent = new ArrayList<>(events.size());
            for (Outgoing<T> event : events) {
                CompletableFuture<Receipt> receipt = new CompletableFuture<>();
                kafka.send(new ProducerRecord<>(topic, event.key(), event.value()), (written, failure) -> {
                    if (failure != null) {
                        receipt.completeExceptionally(failure);
                    } else {
                        receipt.complete(new Receipt(event.eventId(), written.topic(), written.partition(),
                                written.offset()));
                    }
                });
                sent.add(receipt);
            }
            return sent;
        }).flatMap(sent -> Uni.createFrom().completionStage(
                CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new))
                        .thenApply(done -> sent.stream().map(CompletableFuture::join).toList())));
    }
}
