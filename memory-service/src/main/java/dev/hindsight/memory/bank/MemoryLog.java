package dev.hindsight.memory.bank;

import dev.hindsight.events.Sealed;
import dev.hindsight.events.datakeys.DataKeyEvent;
import dev.hindsight.events.datakeys.ErasureReason;
import dev.hindsight.events.memory.MemoryEvent;
import dev.hindsight.platform.crypto.DataKeys;
import dev.hindsight.platform.crypto.Kms;
import dev.hindsight.platform.erasure.ErasureLog;
import dev.hindsight.platform.kafka.DataKeyIssuer;
import dev.hindsight.platform.kafka.DataKeyScan;
import dev.hindsight.platform.kafka.EventSealer;
import dev.hindsight.platform.kafka.Publisher.Outgoing;
import dev.hindsight.platform.kafka.Publisher;
import dev.hindsight.platform.kafka.SealedEnvelopes;
import dev.hindsight.platform.problem.Problem;
import dev.hindsight.platform.problem.ProblemException;
import dev.hindsight.platform.tenant.TenantId;
import io.smallrye.common.annotation.Identifier;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.kafka.KafkaClientService;
import io.smallrye.reactive.messaging.kafka.KafkaProducer;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlClient;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
 * wrote, and destroying the memory's keys erases them from the log. An erasure (ADR 0028) writes a memory again under
 * a key made after it began ({@link #freshKeys}), in its own transaction ({@link #appendIn}), and destroys the
 * memory's other keys ({@link #liveKeys}, {@link #destroyKeys}).
 */
@Singleton
public class MemoryLog {

    private static final Logger LOG = Logger.getLogger(MemoryLog.class);

    private final KafkaProducer<String, MemoryEvent> producer;
    private final String topic;
    private final Pool pool;
    private final BankProjection projection;
    private final Duration ackTimeout;
    private final DataKeyIssuer issuer;
    private final SealedEnvelopes envelopes;
    private final int keysAtHand;
    /** Replaced by {@link #freshKeys}: a new sealer holds no key yet. */
    private volatile EventSealer sealer;
    private final DataKeyScan keys;

    /** The emitters are injected so SmallRye creates and wires the channels; events go through their producers. */
    public MemoryLog(@Channel("memory") MutinyEmitter<MemoryEvent> channel, KafkaClientService kafka,
            @Channel(DataKeyIssuer.CHANNEL) MutinyEmitter<DataKeyEvent> dataKeys,
            @ConfigProperty(name = "mp.messaging.outgoing.memory.topic") String topic,
            @ConfigProperty(name = "hindsight.memory-ack-timeout", defaultValue = "10s") Duration ackTimeout,
            Pool pool, BankProjection projection, Kms kms, Config config, ErasureLog erasures,
            @Identifier("default-kafka-broker") Map<String, Object> kafkaSettings) {
        this.producer = kafka.getProducer("memory");
        if (producer == null) {
            throw new IllegalStateException("No Kafka producer for channel memory");
        }
        this.topic = topic;
        this.pool = pool;
        this.projection = projection;
        this.ackTimeout = ackTimeout;
        this.issuer = DataKeyIssuer.onChannel(kms, "hindsight-memory", kafka, config, ackTimeout);
        this.envelopes = new SealedEnvelopes(kafkaSettings, config);
        this.keysAtHand = config.getOptionalValue(EventSealer.CACHE_SIZE, Integer.class).orElse(20_000);
        this.sealer = sealer();
        this.keys = new DataKeyScan(kafkaSettings, config);
        // An erasure destroys keys before it reaches the log (a tenant's, all of them): none may seal anything again.
        erasures.onRequested(erasure -> forgetKeys(Set.copyOf(erasure.destroyedKeys())));
    }

    private EventSealer sealer() {
        return new EventSealer(issuer, envelopes, kind -> DataKeys.Scope.MEMORY, keysAtHand);
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
        return publishSealed(events).replaceWithVoid();
    }

    /** {@link #publish}, answering the ids of the data keys the events were sealed under. */
    private Uni<Set<String>> publishSealed(List<MemoryEvent> events) {
        if (events.isEmpty()) {
            return Uni.createFrom().item(Set.of());
        }
        List<Outgoing<MemoryEvent>> outgoing = events.stream()
                .map(e -> new Outgoing<>(MemoryEvents.key(e), e, e.getHeader().getEventId().toString())).toList();
        Set<String> keyIds = new HashSet<>();
        return Stages.timed("append", "publish", () -> sealer.seal(topic, outgoing)
                        .invoke(sealed -> sealed.forEach(e -> {
                            if (e.value().getPayload() instanceof Sealed under) {
                                keyIds.add(under.getKeyId());
                            }
                        }))
                        .chain(sealed -> Publisher.sendAll(producer, topic, sealed)))
                .ifNoItem().after(ackTimeout).fail()
                .onFailure().transform(failure -> {
                    LOG.warnf("Kafka did not acknowledge %d memory event(s): %s", events.size(), failure.toString());
                    return new ProblemException(Problem.of(503, "Service unavailable",
                            "The event log did not acknowledge the change; nothing was changed. Retry later."),
                            Map.of("Retry-After", "5"));
                })
                .replaceWith(() -> Set.copyOf(keyIds));
    }

    /**
     * Publishes {@code events} and applies them within the caller's transaction {@code tx} (an erasure, which holds
     * the memories' rows locked while it publishes); answers the ids of the data keys they were sealed under once
     * both are done. They are claimed in the ledger before they are published: the consumer that reads them back
     * waits for {@code tx} at its claim, rather than holding their ids while it waits for the rows {@code tx} locked,
     * which deadlocked the two.
     */
    public Uni<Set<String>> appendIn(SqlClient tx, List<MemoryEvent> events) {
        return projection.claim(tx, events).flatMap(fresh -> publishSealed(events)
                .flatMap(keyIds -> projection.applyClaimed(tx, fresh).replaceWith(keyIds)));
    }

    /**
     * From now on, every memory's next events are sealed under a key made from now on, never one this replica had at
     * hand: what an erasure re-keys must not share a key with what it erases. Erasures are rare; each costs every
     * memory that changes afterwards one new key.
     */
    public void freshKeys() {
        sealer = sealer();
    }

    /**
     * The ids of the tenant's data keys not yet destroyed owned by one of {@code owners} (memory ids, or
     * {@code project:<id>}), or all of the tenant's when {@code wholeTenant}: whichever replica issued them. Reads the
     * whole key topic: blocking, never on an event loop.
     */
    public Set<String> liveKeys(TenantId tenant, Set<String> owners, boolean wholeTenant) {
        return keys.live(tenant, owners, false, wholeTenant);
    }

    /**
     * Destroys the keys {@code keyIds} (ADR 0027), so that what was sealed under them is erased from the log, and drops
     * them from this replica's keys at hand, so that nothing is sealed under them any more; completes once Kafka
     * acknowledged the destructions.
     */
    public Uni<Void> destroyKeys(TenantId tenant, Set<String> keyIds, ErasureReason reason) {
        forgetKeys(keyIds);
        return issuer.destroyAll(tenant, keyIds, reason);
    }

    /**
     * Drops {@code keyIds}, destroyed, from this replica's keys at hand: the next event of their memories is sealed
     * under a new key.
     */
    public void forgetKeys(Set<String> keyIds) {
        sealer.forget(keyIds);
    }

    private static boolean retryable(Throwable failure) {
        return failure instanceof io.vertx.pgclient.PgException pg
                && ("40P01".equals(pg.getSqlState()) || "40001".equals(pg.getSqlState()));
    }

    @PreDestroy
    void close() {
        envelopes.close();
    }
}
