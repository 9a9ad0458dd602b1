package dev.hindsight.memory.bank;

import dev.hindsight.events.datakeys.DataKeyEvent;
import dev.hindsight.events.memory.MemoryEvent;
import dev.hindsight.platform.crypto.DataKeys;
import dev.hindsight.platform.crypto.Kms;
import dev.hindsight.platform.kafka.DataKeyIssuer;
import dev.hindsight.platform.kafka.EventSealer;
import dev.hindsight.platform.kafka.Publisher.Outgoing;
import dev.hindsight.platform.kafka.Publisher;
import dev.hindsight.platform.problem.Problem;
import dev.hindsight.platform.problem.ProblemException;
import io.smallrye.common.annotation.Identifier;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.kafka.KafkaClientService;
import io.smallrye.reactive.messaging.kafka.KafkaProducer;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.jboss.logging.Logger;

/**
 * Every change to the ReasoningBank goes through here: published to hindsight.memory.v1 (acks=all, idempotent
 * producer) and, once Kafka acknowledged it, applied to the database by {@link BankProjection} so the caller reads
 * its own write. If Kafka does not acknowledge, nothing changed and the caller gets 503 with Retry-After; if the
 * database fails after the acknowledgement, the consumer applies the event anyway (the change is durable). Events are
 * sealed on their way out (ADR 0027), each under a key its memory owns: memory text and vectors come from what people
 * wrote, and destroying the memory's keys erases them from the log.
 */
@Singleton
public class MemoryLog {

    private static final Logger LOG = Logger.getLogger(MemoryLog.class);

    private final KafkaProducer<String, MemoryEvent> producer;
    private final String topic;
    private final Pool pool;
    private final BankProjection projection;
    private final Duration ackTimeout;
    private final EventSealer sealer;

    /** The emitters are injected so SmallRye creates and wires the channels; events go through their producers. */
    public MemoryLog(@Channel("memory") MutinyEmitter<MemoryEvent> channel, KafkaClientService kafka,
            @Channel(DataKeyIssuer.CHANNEL) MutinyEmitter<DataKeyEvent> dataKeys,
            @ConfigProperty(name = "mp.messaging.outgoing.memory.topic") String topic,
            @ConfigProperty(name = "hindsight.memory-ack-timeout", defaultValue = "10s") Duration ackTimeout,
            Pool pool, BankProjection projection, Kms kms, Config config,
            @Identifier("default-kafka-broker") Map<String, Object> kafkaSettings) {
        this.producer = kafka.getProducer("memory");
        if (producer == null) {
            throw new IllegalStateException("No Kafka producer for channel memory");
        }
        this.topic = topic;
        this.pool = pool;
        this.projection = projection;
        this.ackTimeout = ackTimeout;
        this.sealer = new EventSealer(DataKeyIssuer.onChannel(kms, "hindsight-memory", kafka, config, ackTimeout),
                kind -> DataKeys.Scope.MEMORY, kafkaSettings, config);
    }

    /** Publishes {@code events} and applies them; completes when both are done. */
    public Uni<Void> append(List<MemoryEvent> events) {
        if (events.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return publish(events)
                .flatMap(published -> Stages.timed("append", "apply",
                        () -> pool.withTransaction(tx -> projection.write(tx, events))
                                // The consumer may be applying the same events at this moment: on a deadlock or a
                                // serialization failure, try again (the ledger then skips what the consumer applied).
                                .onFailure(MemoryLog::retryable).retry().atMost(3)));
    }

    /**
     * Publishes {@code events} without applying them here: the {@code memories} consumer applies them (for changes
     * the caller does not read back at once). Fails with 503 when Kafka does not acknowledge.
     */
    public Uni<Void> publish(List<MemoryEvent> events) {
        if (events.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        List<Outgoing<MemoryEvent>> outgoing = events.stream()
                .map(e -> new Outgoing<>(MemoryEvents.key(e), e, e.getHeader().getEventId().toString())).toList();
        return Stages.timed("append", "publish", () -> sealer.seal(topic, outgoing)
                        .chain(sealed -> Publisher.sendAll(producer, topic, sealed)))
                .ifNoItem().after(ackTimeout).fail()
                .onFailure().transform(failure -> {
                    LOG.warnf("Kafka did not acknowledge %d memory event(s): %s", events.size(), failure.toString());
                    return new ProblemException(Problem.of(503, "Service unavailable",
                            "The event log did not acknowledge the change; nothing was changed. Retry later."),
                            Map.of("Retry-After", "5"));
                })
                .replaceWithVoid();
    }

    private static boolean retryable(Throwable failure) {
        return failure instanceof io.vertx.pgclient.PgException pg
                && ("40P01".equals(pg.getSqlState()) || "40001".equals(pg.getSqlState()));
    }

    @PreDestroy
    void close() {
        sealer.close();
    }
}
