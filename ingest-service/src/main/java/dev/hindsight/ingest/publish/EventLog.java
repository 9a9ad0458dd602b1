package dev.hindsight.ingest.publish;

import dev.hindsight.events.decisions.DecisionEvent;
import dev.hindsight.events.keys.KeyEvent;
import dev.hindsight.events.reasoning.ReasoningEvent;
import dev.hindsight.events.signals.SignalEvent;
import dev.hindsight.events.spans.SpanEvent;
import dev.hindsight.ingest.quota.TenantQuotas;
import dev.hindsight.platform.auth.TenantContext;
import dev.hindsight.platform.erasure.ErasureLog;
import dev.hindsight.platform.kafka.Publisher;
import dev.hindsight.platform.kafka.Publisher.Outgoing;
import dev.hindsight.platform.kafka.Receipt;
import dev.hindsight.platform.problem.Problem;
import dev.hindsight.platform.problem.ProblemException;
import dev.hindsight.platform.redact.Redactor;
import dev.hindsight.platform.tenant.TenantId;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.OutgoingMessageMetadata;
import io.smallrye.reactive.messaging.kafka.KafkaClientService;
import io.smallrye.reactive.messaging.kafka.KafkaProducer;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import io.smallrye.reactive.messaging.kafka.transactions.KafkaTransactions;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.apache.avro.specific.SpecificRecordBase;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

/**
 * The single writer of the source topics. Every method completes only after Kafka acknowledged all its events
 * (acks=all, idempotent producer); when Kafka does not, it fails with a 503 problem carrying Retry-After, and the
 * caller acknowledges nothing.
 */
@ApplicationScoped
public class EventLog {

    private static final Logger LOG = Logger.getLogger(EventLog.class);

    private final KafkaTransactions<ReasoningEvent> reasoningTransactions;
    private final Sink<ReasoningEvent> reasoning;
    private final Sink<DecisionEvent> decisions;
    private final Sink<SignalEvent> signals;
    private final Sink<KeyEvent> keys;
    private final Sink<SpanEvent> spans;
    private final Duration ackTimeout;
    private final Duration openFor;
    private final TenantContext tenant;
    private final TenantQuotas quotas;
    private final EventSealing sealer;
    /** While now is before this (System.nanoTime), Kafka is considered away: answer 503 without trying. */
    private final AtomicLong openUntil = new AtomicLong(System.nanoTime());

    private final ErasureLog erasures;

    /** A channel's Kafka producer and topic. */
    private record Sink<T>(KafkaProducer<String, T> producer, String topic) {
    }

    /**
     * The emitters are injected only so that SmallRye creates and wires the channels (and their health checks); events
     * go through the channels' producers with {@link Publisher#sendAll}.
     */
    public EventLog(
            @Channel("reasoning") MutinyEmitter<ReasoningEvent> reasoningChannel,
            @Channel("reasoning-tx") KafkaTransactions<ReasoningEvent> reasoningTransactions,
            @Channel("decisions") MutinyEmitter<DecisionEvent> decisionsChannel,
            @Channel("signals") MutinyEmitter<SignalEvent> signalsChannel,
            @Channel("keys") MutinyEmitter<KeyEvent> keysChannel,
            @Channel("spans") MutinyEmitter<SpanEvent> spansChannel,
            KafkaClientService kafka,
            Config channels,
            IngestConfig config,
            TenantContext tenant,
            TenantQuotas quotas,
            EventSealing sealer,
            ErasureLog erasures) {
        this.erasures = erasures;
        this.reasoningTransactions = reasoningTransactions;
        this.reasoning = sink(kafka, channels, "reasoning");
        this.decisions = sink(kafka, channels, "decisions");
        this.signals = sink(kafka, channels, "signals");
        this.keys = sink(kafka, channels, "keys");
        this.spans = sink(kafka, channels, "spans");
        this.ackTimeout = config.ackTimeout();
        this.openFor = config.openCircuitFor();
        this.tenant = tenant;
        this.quotas = quotas;
        this.sealer = sealer;
    }

    /** Publishes to {@code hindsight.reasoning.v1}, keyed by session id. */
    public Uni<List<Receipt>> reasoning(List<Outgoing<ReasoningEvent>> events) {
        return sealed(reasoning, events);
    }

    /**
     * Publishes to {@code hindsight.reasoning.v1} in one Kafka transaction: consumers reading committed data see all
     * of the events or none of them. Completes after the commit.
     */
    public Uni<List<Receipt>> reasoningAtomically(List<Outgoing<ReasoningEvent>> events) {
        ProblemException gone = gone(events);
        if (gone != null) {
            return Uni.createFrom().failure(gone);
        }
        List<OutgoingMessageMetadata<RecordMetadata>> written = new ArrayList<>(events.size());
        return guarded(events.size(), () -> sealer.seal(reasoning.topic(), events).chain(sealed ->
                reasoningTransactions.withTransaction(tx -> {
            for (Outgoing<ReasoningEvent> event : sealed) {
                OutgoingMessageMetadata<RecordMetadata> result = new OutgoingMessageMetadata<>();
                written.add(result);
                tx.send(Message.of(event.value())
                        .addMetadata(OutgoingKafkaRecordMetadata.<String>builder().withKey(event.key()).build())
                        .addMetadata(result));
            }
            return Uni.createFrom().voidItem();
        }).map(committed -> {
            List<Receipt> receipts = new ArrayList<>(events.size());
            for (int i = 0; i < events.size(); i++) {
                RecordMetadata at = written.get(i).getResult();
                receipts.add(new Receipt(events.get(i).eventId(), at.topic(), at.partition(), at.offset()));
            }
            return receipts;
        })));
    }

    /** Publishes to {@code hindsight.decisions.v1}, keyed by message id. */
    public Uni<List<Receipt>> decisions(List<Outgoing<DecisionEvent>> events) {
        return sealed(decisions, events);
    }

    /** Publishes to {@code hindsight.signals.v1}, keyed by message id. */
    public Uni<List<Receipt>> signals(List<Outgoing<SignalEvent>> events) {
        return sealed(signals, events);
    }

    /** Publishes to {@code hindsight.keys.v1}, keyed by key id. */
    public Uni<List<Receipt>> keys(List<Outgoing<KeyEvent>> events) {
        return durable(keys, events);
    }

    /** Publishes to {@code hindsight.spans.v1}, keyed by trace id. */
    public Uni<List<Receipt>> spans(List<Outgoing<SpanEvent>> events) {
        return sealed(spans, events);
    }

    /** As {@link #durable}, with the events sealed first: every topic that carries what producers wrote. */
    private <T extends SpecificRecordBase> Uni<List<Receipt>> sealed(Sink<T> sink, List<Outgoing<T>> events) {
        ProblemException gone = gone(events);
        if (gone != null) {
            return Uni.createFrom().failure(gone);
        }
        return guarded(events.size(), () -> sealer.seal(sink.topic(), events)
                .chain(sealed -> Publisher.sendAll(sink.producer(), sink.topic(), sealed)));
    }

    private <T> Uni<List<Receipt>> durable(Sink<T> sink, List<Outgoing<T>> events) {
        return guarded(events.size(), () -> Publisher.sendAll(sink.producer(), sink.topic(), events));
    }

    private static <T> Sink<T> sink(KafkaClientService kafka, Config channels, String channel) {
        KafkaProducer<String, T> producer = kafka.getProducer(channel);
        if (producer == null) {
            throw new IllegalStateException("No Kafka producer for channel " + channel);
        }
        return new Sink<>(producer, channels.getValue("mp.messaging.outgoing." + channel + ".topic", String.class));
    }

    /**
     * Runs a send of {@code count} events (none: answered at once) unless Kafka is known to be away; bounds the wait
     * for its acknowledgement; on failure opens the circuit so that the next requests are answered 503 at once, and
     * answers 503 itself.
     */
    private Uni<List<Receipt>> guarded(int count, Supplier<Uni<List<Receipt>>> send) {
        if (count == 0) {
            // Nothing to acknowledge: no timer, no Kafka call (a batch usually touches one topic of three).
            return Uni.createFrom().item(List.of());
        }
        long now = System.nanoTime();
        if (now - openUntil.get() < 0) {
            return Uni.createFrom().failure(unavailable());
        }
        // Read on the request's own thread, before the send completes elsewhere.
        TenantId caller = tenant.tenant();
        return Uni.createFrom().<List<Receipt>>deferred(send::get)
                .invoke(receipts -> quotas.published(caller, count))
                .ifNoItem().after(ackTimeout).fail()
                .onFailure(EventLog::isSerializationFailure).transform(failure -> {
                    // Our event could not be written at all: a bug to fix, not Kafka being away.
                    LOG.errorf(Redactor.operational(failure), "Could not serialize %d event(s)", count);
                    return new IllegalStateException("Could not serialize the events", failure);
                })
                .onFailure(EventLog::isTooLarge).transform(failure -> {
                    // The producer's request cannot fit the topic: retrying never helps, and Kafka is not away.
                    LOG.warnf("Refused %d event(s) too large for the event log: %s", count, failure.toString());
                    return tooLarge();
                })
                .onFailure(failure -> !(failure instanceof IllegalStateException)
                        && !(failure instanceof ProblemException)).transform(failure -> {
                    openUntil.set(System.nanoTime() + openFor.toNanos());
                    LOG.warnf("Kafka did not acknowledge %d event(s) (%s); answering 503 for the next %d s", count,
                            failure.toString(), openFor.toSeconds());
                    return unavailable();
                });
    }

    /**
     * 410 when an event is for a session, message or trace that was erased (or the caller's tenant is being
     * erased): a late retry must not bring it back (ADR 0028). Nothing of the request is published.
     */
    private <T> ProblemException gone(List<Outgoing<T>> events) {
        TenantId caller = tenant.tenant();
        java.util.Set<String> erased = null;
        for (Outgoing<T> event : events) {
            if (erasures.erased(caller, event.key())) {
                if (erased == null) {
                    erased = new java.util.TreeSet<>();
                }
                erased.add(event.key());
            }
        }
        if (erased == null) {
            return null;
        }
        List<Problem.FieldError> errors = erased.stream().limit(20)
                .map(id -> new Problem.FieldError("id", id + " was erased")).toList();
        return new ProblemException(Problem.of(410, "Gone", "This request is about erased data (a session, message "
                + "or trace, or the tenant, was erased); nothing of it was accepted.", errors));
    }

    private static boolean isTooLarge(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof org.apache.kafka.common.errors.RecordTooLargeException
                    || cause instanceof org.apache.kafka.common.errors.RecordBatchTooLargeException) {
                return true;
            }
        }
        return false;
    }

    /** The answer when an event is larger than the topic takes: nothing was accepted, and a retry cannot help. */
    public static ProblemException tooLarge() {
        return new ProblemException(Problem.of(413, "Payload too large", "An event of this request is larger than "
                + "the event log takes (hindsight.kafka.max-message-bytes); nothing was accepted. Send less per "
                + "message."));
    }

    private static boolean isSerializationFailure(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof org.apache.kafka.common.errors.SerializationException
                    || cause instanceof org.apache.avro.AvroRuntimeException
                    || cause instanceof NullPointerException) {
                return true;
            }
        }
        return false;
    }

    /** The answer when the event log cannot take events: nothing was accepted; retry after the circuit's pause. */
    public ProblemException unavailable() {
        return new ProblemException(Problem.of(503, "Service unavailable",
                "The event log did not acknowledge the events; nothing was accepted. Retry later."),
                Map.of("Retry-After", Long.toString(Math.max(1, openFor.toSeconds()))));
    }
}
