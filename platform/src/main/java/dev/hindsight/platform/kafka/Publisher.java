package dev.hindsight.platform.kafka;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.UniEmitter;
import io.smallrye.reactive.messaging.kafka.KafkaProducer;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Sends keyed events and completes only when Kafka acknowledged all of them, with a {@link Receipt} per event. All of a
 * call's records are handed to the channel's producer in one hop to its sending thread (never blocking the event loop,
 * even when the producer must wait for metadata or buffer space), so the producer batches them; one SmallRye emitter
 * message per event would cost more than serializing it (docs/benchmarks.md). The call completes once, when the last
 * acknowledgement arrives (or the first failure): one counter for the call, not a future per record.
 *
 * <p>Kafka runs acknowledgement callbacks on the producer's one network thread. Whatever follows the call (building
 * receipts into an answer, writing it as JSON) must not run there, or every caller's sends wait behind it and that one
 * thread caps the service however many cores it has. So a call made on a Vert.x context (an HTTP request's event loop)
 * completes back on that context; a call made elsewhere completes on the network thread, as Kafka's own futures do.
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
        return Uni.createFrom().emitter(direct -> {
            Outcome<List<Receipt>> emitter = new Outcome<>(Vertx.currentContext(), direct);
            Receipt[] receipts = new Receipt[events.size()];
            AtomicInteger pending = new AtomicInteger(events.size());
            AtomicReference<Throwable> failed = new AtomicReference<>();
            producer.runOnSendingThread(kafka -> {
                for (int i = 0; i < events.size(); i++) {
                    Outgoing<T> event = events.get(i);
                    int at = i;
                    kafka.send(new ProducerRecord<>(topic, event.key(), event.value()), (written, failure) -> {
                        if (failure != null) {
                            if (failed.compareAndSet(null, failure)) {
                                emitter.fail(failure);
                            }
                        } else {
                            receipts[at] = new Receipt(event.eventId(), written.topic(), written.partition(),
                                    written.offset());
                        }
                        if (pending.decrementAndGet() == 0 && failed.get() == null) {
                            emitter.complete(Arrays.asList(receipts));
                        }
                    });
                }
            }).subscribe().with(sent -> { }, failure -> {
                if (failed.compareAndSet(null, failure)) {
                    emitter.fail(failure);
                }
            });
        });
    }

    /** Completes or fails an emitter on the caller's Vert.x context, when there is one and it is not the current one. */
    private record Outcome<T>(Context context, UniEmitter<? super T> emitter) {

        void complete(T item) {
            deliver(() -> emitter.complete(item));
        }

        void fail(Throwable failure) {
            deliver(() -> emitter.fail(failure));
        }

        private void deliver(Runnable outcome) {
            if (context == null || Vertx.currentContext() == context) {
                outcome.run();
            } else {
                context.runOnContext(ignored -> outcome.run());
            }
        }
    }
}
