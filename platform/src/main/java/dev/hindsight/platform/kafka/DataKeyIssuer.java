package dev.hindsight.platform.kafka;

import dev.hindsight.events.EventHeader;
import dev.hindsight.events.HindsightTopic;
import dev.hindsight.events.datakeys.DataKeyCreated;
import dev.hindsight.events.datakeys.DataKeyDestroyed;
import dev.hindsight.events.datakeys.DataKeyEvent;
import dev.hindsight.events.datakeys.DataKeyScope;
import dev.hindsight.events.datakeys.ErasureReason;
import dev.hindsight.platform.crypto.DataKeys;
import dev.hindsight.platform.crypto.Kms;
import dev.hindsight.platform.kafka.Publisher.Outgoing;
import dev.hindsight.platform.tenant.TenantId;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.KafkaClientService;
import io.smallrye.reactive.messaging.kafka.KafkaProducer;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;
import org.eclipse.microprofile.config.Config;

/**
 * Makes data keys and destroys them, on {@code hindsight.datakeys.v1} (ADR 0027). A key is made here and published
 * wrapped; whoever seals under it waits for Kafka's acknowledgement first, so nothing is ever sealed under a key that is
 * not durable. Keys are published in batches (one acknowledgement for all the keys a request needs). A destruction is a
 * kept marker.
 */
public final class DataKeyIssuer {

    /** The channel every sealing service publishes its keys on (configured {@code mp.messaging.outgoing.data_keys}). */
    public static final String CHANNEL = "data_keys";

    private final Kms kms;
    private final String principal;
    private final Function<List<Outgoing<DataKeyEvent>>, Uni<?>> log;
    private final Clock clock = Clock.systemUTC();

    /** Publishing through {@code log}, which completes once Kafka acknowledged every key given to it. */
    public DataKeyIssuer(Kms kms, String principal, Function<List<Outgoing<DataKeyEvent>>, Uni<?>> log) {
        this.kms = kms;
        this.principal = principal;
        this.log = log;
    }

    /**
     * Publishing on the service's {@link #CHANNEL} channel (its emitter must be injected somewhere, so that SmallRye
     * creates it), failing when Kafka has not acknowledged within {@code ackTimeout}.
     */
    public static DataKeyIssuer onChannel(Kms kms, String principal, KafkaClientService kafka, Config config,
            Duration ackTimeout) {
        KafkaProducer<String, DataKeyEvent> producer = kafka.getProducer(CHANNEL);
        if (producer == null) {
            throw new IllegalStateException("No Kafka producer for channel " + CHANNEL);
        }
        String topic = OwnedTopics.name(config, HindsightTopic.DATA_KEYS);
        return new DataKeyIssuer(kms, principal,
                events -> Publisher.sendAll(producer, topic, events).ifNoItem().after(ackTimeout).fail());
    }

    /** A key about to be published: the key to seal with once it is durable, and its record. */
    public record Issue(DataKeys.DataKey key, Outgoing<DataKeyEvent> record) {
    }

    /**
     * A new key of {@code tenant} for {@code scope} and what it seals ({@code owner}: the record key of its events, or
     * null), wrapped by {@code parent} (a subject's key) or, when it is null, by the tenant's current KEK; made here,
     * not yet published.
     */
    public Issue make(TenantId tenant, DataKeys.Scope scope, String owner, DataKeys.DataKey parent) {
        int version = kms.currentVersion();
        DataKeys.Created created = DataKeys.create(tenant, scope, parent == null
                ? kms.keyEncryptionKey(tenant, version) : parent.aead());
        DataKeyCreated payload = DataKeyCreated.newBuilder()
                .setScope(DataKeyScope.valueOf(scope.name()))
                .setOwner(owner)
                .setParentKeyId(parent == null ? null : parent.keyId())
                .setKekVersion(parent == null ? version : null)
                .setWrapped(ByteBuffer.wrap(created.wrapped().wrapped()))
                .build();
        return new Issue(created.key(), record(tenant, created.key().keyId(), payload));
    }

    /** Publishes {@code issues} at once; completes when Kafka acknowledged all of them. */
    public Uni<Void> publish(List<Issue> issues) {
        List<Outgoing<DataKeyEvent>> records = new ArrayList<>(issues.size());
        issues.forEach(issue -> records.add(issue.record()));
        return log.apply(records).replaceWithVoid();
    }

    /** {@link #make} and {@link #publish} one key: answered once it is durable. */
    public Uni<DataKeys.DataKey> issue(TenantId tenant, DataKeys.Scope scope, String owner, DataKeys.DataKey parent) {
        Issue issue = make(tenant, scope, owner, parent);
        return publish(List.of(issue)).replaceWith(issue.key());
    }

    /** Destroys the key: everything sealed under it, and under every key it wraps, is erased. */
    public Uni<Void> destroy(TenantId tenant, String keyId, ErasureReason reason) {
        return log.apply(List.of(record(tenant, keyId, DataKeyDestroyed.newBuilder().setReason(reason).build())))
                .replaceWithVoid();
    }

    /** Destroys every key of {@code keyIds} in one write; completes once Kafka acknowledged all of them. */
    public Uni<Void> destroyAll(TenantId tenant, java.util.Collection<String> keyIds, ErasureReason reason) {
        List<Outgoing<DataKeyEvent>> records = new ArrayList<>(keyIds.size());
        for (String keyId : keyIds) {
            records.add(record(tenant, keyId, DataKeyDestroyed.newBuilder().setReason(reason).build()));
        }
        return republish(records);
    }

    /** Publishes records made elsewhere (a key re-wrapped, a destruction repeated); completes once acknowledged. */
    public Uni<Void> republish(List<Outgoing<DataKeyEvent>> records) {
        return records.isEmpty() ? Uni.createFrom().voidItem() : log.apply(records).replaceWithVoid();
    }

    /** The record of {@code payload} (a {@link DataKeyCreated} or {@link DataKeyDestroyed}) for key {@code keyId}. */
    public Outgoing<DataKeyEvent> record(TenantId tenant, String keyId, Object payload) {
        UUID eventId = UUID.randomUUID();
        EventHeader header = EventHeaders.create(eventId, tenant, principal, null, Instant.now(clock), clock);
        DataKeyEvent event = DataKeyEvent.newBuilder().setHeader(header).setKeyId(keyId).setPayload(payload).build();
        return new Outgoing<>(keyId, event, eventId.toString());
    }
}
