package dev.hindsight.platform.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hindsight.platform.kafka.Publisher.Outgoing;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.KafkaProducer;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Where a send completes. Kafka acknowledges on its producer's one network thread; what the caller does next (an HTTP
 * answer) must go back to the caller's event loop, or it delays every other send. Kafka's MockProducer stands in for
 * the broker here, acknowledging from a thread named as Kafka names its network thread; BatchResourceTest and
 * BrokerOutageTest send through a real broker.
 */
class PublisherTest {

    private static final String NETWORK_THREAD = "kafka-producer-network-thread | test";

    private final Vertx vertx = Vertx.vertx();
    private final ExecutorService sending = Executors.newSingleThreadExecutor(r -> new Thread(r, "sending"));
    private final MockProducer<String, String> kafka = new MockProducer<>(false, null, new StringSerializer(),
            new StringSerializer());
    private final List<Outgoing<String>> events = List.of(new Outgoing<>("k1", "v1", "e1"),
            new Outgoing<>("k2", "v2", "e2"));

    @AfterEach
    void close() {
        sending.shutdownNow();
        vertx.close();
    }

    @Test
    void aSendFromAnEventLoopCompletesOnThatEventLoop() throws Exception {
        Context context = vertx.getOrCreateContext();
        CompletableFuture<String> completedOn = new CompletableFuture<>();
        CompletableFuture<List<Receipt>> receipts = new CompletableFuture<>();
        context.runOnContext(ignored -> Publisher.sendAll(producer(), "topic", events).subscribe().with(sent -> {
            completedOn.complete(Thread.currentThread().getName() + (Vertx.currentContext() == context ? "" : " (other)"));
            receipts.complete(sent);
        }, completedOn::completeExceptionally));

        acknowledge(() -> {
            kafka.completeNext();
            kafka.completeNext();
        });

        assertThat(completedOn.get(10, TimeUnit.SECONDS)).startsWith("vert.x-eventloop-thread").doesNotContain("other");
        assertThat(receipts.get()).extracting(Receipt::eventId).containsExactly("e1", "e2");
    }

    @Test
    void aFailedSendFromAnEventLoopFailsOnThatEventLoop() throws Exception {
        Context context = vertx.getOrCreateContext();
        CompletableFuture<String> failedOn = new CompletableFuture<>();
        context.runOnContext(ignored -> Publisher.sendAll(producer(), "topic", events).subscribe().with(
                sent -> failedOn.completeExceptionally(new AssertionError("acknowledged: " + sent)),
                failure -> failedOn.complete(Thread.currentThread().getName() + ": " + failure.getMessage())));

        acknowledge(() -> kafka.errorNext(new RuntimeException("broker away")));

        assertThat(failedOn.get(10, TimeUnit.SECONDS)).startsWith("vert.x-eventloop-thread").endsWith("broker away");
    }

    @Test
    void aSendFromOutsideVertxCompletesWhereKafkaAcknowledges() throws Exception {
        CompletableFuture<String> completedOn = new CompletableFuture<>();
        Publisher.sendAll(producer(), "topic", events).subscribe().with(
                sent -> completedOn.complete(Thread.currentThread().getName()), completedOn::completeExceptionally);

        acknowledge(() -> {
            kafka.completeNext();
            kafka.completeNext();
        });

        assertThat(completedOn.get(10, TimeUnit.SECONDS)).isEqualTo(NETWORK_THREAD);
    }

    /** Once both records reached the producer, runs {@code acks} on a thread named as Kafka's network thread. */
    private void acknowledge(Runnable acks) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (kafka.history().size() < events.size()) {
            if (System.nanoTime() > deadline) {
                throw new TimeoutException("the records never reached the producer: " + kafka.history());
            }
            Thread.onSpinWait();
        }
        Thread network = new Thread(acks, NETWORK_THREAD);
        network.start();
        network.join(10_000);
    }

    /** SmallRye's producer as the publisher uses it: actions on a sending thread of its own. */
    @SuppressWarnings("unchecked")
    private KafkaProducer<String, String> producer() {
        return (KafkaProducer<String, String>) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {KafkaProducer.class}, (proxy, method, args) -> {
                    if (method.getName().equals("runOnSendingThread")
                            && method.getParameterTypes()[0] == Consumer.class) {
                        Consumer<Producer<String, String>> action = (Consumer<Producer<String, String>>) args[0];
                        return Uni.createFrom().item(() -> {
                            action.accept(kafka);
                            return (Void) null;
                        }).runSubscriptionOn(sending);
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
    }
}
