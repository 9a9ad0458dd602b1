package dev.hindsight.ingest.publish;

import dev.hindsight.events.decisions.DecisionEvent;
import dev.hindsight.events.reasoning.ReasoningEvent;
import dev.hindsight.events.signals.SignalEvent;
import dev.hindsight.platform.kafka.Publisher;
import dev.hindsight.platform.kafka.Publisher.Outgoing;
import dev.hindsight.platform.kafka.Receipt;
import dev.hindsight.platform.problem.Problem;
import dev.hindsight.platform.problem.ProblemException;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.OutgoingMessageMetadata;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.eclipse.microprofile.reactive.messaging.Message;
import io.smallrye.reactive.messaging.kafka.transactions.KafkaTransactions;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.OnOverflow;
import org.jboss.logging.Logger;

/**
 * The single writer of the three source topics. Every method completes only after Kafka acknowledged all its events
 * (acks=all, idempotent producer); when Kafka does not, it fails with a 503 problem carrying Retry-After, and the
 * caller acknowledges nothing.
 */
@ApplicationScoped
public class EventLog {

    private static final Logger LOG = Logger.getLogger(EventLog.class);
    /** Seconds a producer should wait before retrying after a 503. */
    public static final String RETRY_AFTER_SECONDS = "5";

    private final MutinyEmitter<ReasoningEvent> reasoning;
    private final KafkaTransactions<ReasoningEvent> reasoningTransactions;
    private final MutinyEmitter<DecisionEvent> decisions;
    private final MutinyEmitter<SignalEvent> signals;

    public EventLog(
            @Channel("reasoning") @OnOverflow(value = OnOverflow.Strategy.BUFFER, bufferSize = 8192)
            MutinyEmitter<ReasoningEvent> reasoning,
            @Channel("reasoning-tx") KafkaTransactions<ReasoningEvent> reasoningTransactions,
            @Channel("decisions") @OnOverflow(value = OnOverflow.Strategy.BUFFER, bufferSize = 8192)
            MutinyEmitter<DecisionEvent> decisions,
            @Channel("signals") @OnOverflow(value = OnOverflow.Strategy.BUFFER, bufferSize = 8192)
            MutinyEmitter<SignalEvent> signals) {
        this.reasoning = reasoning;
        this.reasoningTransactions = reasoningTransactions;
        this.decisions = decisions;
        this.signals = signals;
    }

    /** Publishes to {@code hindsight.reasoning.v1}, keyed by session id. */
    public Uni<List<Receipt>> reasoning(List<Outgoing<ReasoningEvent>> events) {
        return durable(reasoning, events);
    }

    /**
     * Publishes to {@code hindsight.reasoning.v1} in one Kafka transaction: consumers reading committed data see all
     * of the events or none of them. Completes after the commit.
     */
    public Uni<List<Receipt>> reasoningAtomically(List<Outgoing<ReasoningEvent>> events) {
        List<OutgoingMessageMetadata<RecordMetadata>> written = new java.util.ArrayList<>(events.size());
        return reasoningTransactions.withTransaction(tx -> {
            for (Outgoing<ReasoningEvent> event : events) {
                OutgoingMessageMetadata<RecordMetadata> result = new OutgoingMessageMetadata<>();
                written.add(result);
                tx.send(Message.of(event.value())
                        .addMetadata(OutgoingKafkaRecordMetadata.<String>builder().withKey(event.key()).build())
                        .addMetadata(result));
            }
            return Uni.createFrom().voidItem();
        }).map(committed -> {
            List<Receipt> receipts = new java.util.ArrayList<>(events.size());
            for (int i = 0; i < events.size(); i++) {
                RecordMetadata at = written.get(i).getResult();
                receipts.add(new Receipt(events.get(i).eventId(), at.topic(), at.partition(), at.offset()));
            }
            return receipts;
        })
                .onFailure().transform(failure -> {
                    LOG.warnf("Kafka did not commit a transaction of %d event(s): %s", events.size(),
                            failure.toString());
                    return unavailable();
                });
    }

    /** Publishes to {@code hindsight.decisions.v1}, keyed by message id. */
    public Uni<List<Receipt>> decisions(List<Outgoing<DecisionEvent>> events) {
        return durable(decisions, events);
    }

    /** Publishes to {@code hindsight.signals.v1}, keyed by message id. */
    public Uni<List<Receipt>> signals(List<Outgoing<SignalEvent>> events) {
        return durable(signals, events);
    }

    private static <T> Uni<List<Receipt>> durable(MutinyEmitter<T> emitter, List<Outgoing<T>> events) {
        return Publisher.publishAll(emitter, events).onFailure().transform(failure -> {
            LOG.warnf("Kafka did not acknowledge %d event(s): %s", events.size(), failure.toString());
            return unavailable();
        });
    }

    /** The answer when the event log cannot take events. */
    public static ProblemException unavailable() {
        return new ProblemException(Problem.of(503, "Service unavailable",
                "The event log did not acknowledge the events; nothing was accepted. Retry later."),
                Map.of("Retry-After", RETRY_AFTER_SECONDS));
    }
}
