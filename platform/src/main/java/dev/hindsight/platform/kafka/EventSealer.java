package dev.hindsight.platform.kafka;

import dev.hindsight.events.EventHeader;
import dev.hindsight.events.HindsightTopic;
import dev.hindsight.platform.crypto.DataKeys;
import dev.hindsight.platform.kafka.Publisher.Outgoing;
import dev.hindsight.platform.tenant.TenantId;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.avro.specific.SpecificRecordBase;

/**
 * Seals events before they are published (ADR 0027), each under the data key of what its record key names: a
 * session's events under a session key, a trace's spans under a trace key, a memory's under a memory key. A replica
 * keeps the keys it issued at hand, a bounded number, and makes a key the first time it meets an owner: every key one
 * call needs is published in one batch, concurrent calls for one owner share its one key, and nothing sealed under a
 * key is handed back before Kafka acknowledged the key. Another replica, or this one after a restart or once the key
 * was dropped from its cache, makes its own: an owner may have several keys, each event names its own, and erasing the
 * owner destroys every key it owns. Thread-safe.
 */
public final class EventSealer implements AutoCloseable {

    /** What a service's keys are for and whom they are about. */
    public interface KeyPolicy {

        /** The scope of the keys that seal {@code topic}'s events. */
        DataKeys.Scope scope(HindsightTopic topic);

        /**
         * The person {@code envelope} names as what its owner is about, or null: its key is then wrapped under that
         * person's key, so that destroying the person's key erases it.
         */
        default String subject(SpecificRecordBase envelope) {
            return null;
        }
    }

    /**
     * How many owners' keys one replica keeps at hand. An owner whose key was dropped gets a new one with its next
     * event (an owner may have several); each costs a write to the key topic.
     */
    public static final String CACHE_SIZE = "hindsight.crypto.data-key-cache-size";

    private final DataKeyIssuer issuer;
    private final SealedEnvelopes envelopes;
    private final KeyPolicy policy;
    private final Map<Owner, Held> keys;

    /** What a data key seals: the events of one record key of one tenant (or, for a subject's key, one person). */
    private record Owner(TenantId tenant, DataKeys.Scope scope, String id) {
    }

    /** A key at hand, durable once its batch is acknowledged (and its parent's, for a key under a subject's). */
    private record Held(DataKeys.DataKey key, Batch batch, Held parent) {

        void awaited(Set<Batch> batches) {
            batches.add(batch);
            if (parent != null) {
                parent.awaited(batches);
            }
        }
    }

    /**
     * Keys made together and published at once; {@code durable} is shared by everyone who needs one of them. Once
     * Kafka acknowledged them, the batch lets go of its records (a cached key keeps its batch), so that the cache holds
     * keys, not what was published.
     */
    private static final class Batch {
        static final Uni<Void> DONE = Uni.createFrom().voidItem();

        final List<DataKeyIssuer.Issue> issues = new ArrayList<>();
        final List<Owner> owners = new ArrayList<>();
        volatile Uni<Void> durable = DONE;
    }

    /** With the settings of {@code config}: the registry's (for the clear serializer) and {@link #CACHE_SIZE}. */
    public EventSealer(DataKeyIssuer issuer, KeyPolicy policy, Map<String, Object> kafka,
            org.eclipse.microprofile.config.Config config) {
        this(issuer, new SealedEnvelopes(kafka, config), policy,
                config.getOptionalValue(CACHE_SIZE, Integer.class).orElse(20_000));
    }

    public EventSealer(DataKeyIssuer issuer, SealedEnvelopes envelopes, KeyPolicy policy, int capacity) {
        this.issuer = issuer;
        this.envelopes = envelopes;
        this.policy = policy;
        this.keys = new LinkedHashMap<>(1024, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Owner, Held> eldest) {
                return size() > capacity;
            }
        };
    }

    /**
     * Drops the keys at hand that are among {@code destroyed}, or wrapped by one of them (ADR 0028): an erased
     * person's next session must get a key that works, not one under the person's destroyed key.
     */
    public void forget(Set<String> destroyed) {
        if (destroyed.isEmpty()) {
            return;
        }
        synchronized (keys) {
            keys.values().removeIf(held -> destroyed.contains(held.key().keyId())
                    || (held.parent() != null && destroyed.contains(held.parent().key().keyId())));
        }
    }

    /**
     * {@code events}, to be published to {@code topic}, sealed; completes once every key they need is durable, on
     * the caller's Vert.x context when it has one. Fails when a key cannot be published (Kafka away): nothing was sent.
     */
    public <T extends SpecificRecordBase> Uni<List<Outgoing<T>>> seal(String topic, List<Outgoing<T>> events) {
        if (events.isEmpty()) {
            return Uni.createFrom().item(events);
        }
        List<Held> held = new ArrayList<>(events.size());
        Set<Batch> awaited = Collections.newSetFromMap(new IdentityHashMap<>());
        Batch fresh = new Batch();
        synchronized (keys) {
            for (Outgoing<T> event : events) {
                HindsightTopic kind = HindsightTopic.byEnvelope(event.value().getSchema().getFullName())
                        .orElseThrow(() -> new IllegalArgumentException("not a Hindsight envelope"));
                EventHeader header = (EventHeader) event.value().get("header");
                Owner owner = new Owner(TenantId.of(header.getTenantId()), policy.scope(kind),
                        kind.recordKey(event.value()));
                Held key = keys.get(owner);
                if (key == null) {
                    key = make(owner, policy.subject(event.value()), fresh);
                }
                key.awaited(awaited);
                held.add(key);
            }
            if (!fresh.issues.isEmpty()) {
                fresh.durable = issuer.publish(List.copyOf(fresh.issues))
                        .onItem().invoke(() -> {
                            fresh.durable = Batch.DONE;
                            synchronized (keys) {
                                fresh.issues.clear();
                                fresh.owners.clear();
                            }
                        })
                        .onFailure().invoke(failure -> forget(fresh))
                        .memoize().indefinitely();
            }
        }
        Uni<Void> durable = awaited.size() == 1 ? awaited.iterator().next().durable
                : Uni.join().all(awaited.stream().map(b -> b.durable).toList()).andFailFast().replaceWithVoid();
        Context caller = Vertx.currentContext();
        // Sealing serializes each event in clear first, and the serializer may ask the registry (a blocking call):
        // never on the event loop. The answer comes back on the caller's context, as Publisher expects.
        Uni<List<Outgoing<T>>> sealing = durable.emitOn(Infrastructure.getDefaultWorkerPool()).map(ignored -> {
            List<Outgoing<T>> sealed = new ArrayList<>(events.size());
            for (int i = 0; i < events.size(); i++) {
                Outgoing<T> event = events.get(i);
                sealed.add(new Outgoing<>(event.key(), envelopes.seal(topic, event.value(), held.get(i).key()),
                        event.eventId()));
            }
            return sealed;
        });
        return caller == null ? sealing : sealing.emitOn(command -> caller.runOnContext(ignored -> command.run()));
    }

    /**
     * A key for {@code owner}, made into {@code batch}: under the key of {@code subject} when one is named (made too
     * when not at hand), so that destroying the person's key erases it. A subject's key is held by the subject, in
     * memory only: on the key topic it names no owner, since the subject is personal; erasing a person finds it as the
     * parent of their sessions' keys. Called holding the lock.
     */
    private Held make(Owner owner, String subject, Batch batch) {
        Held parent = null;
        if (subject != null && !subject.isEmpty()) {
            Owner person = new Owner(owner.tenant(), DataKeys.Scope.SUBJECT, subject);
            parent = keys.get(person);
            if (parent == null) {
                parent = make(person, null, batch);
            }
        }
        String published = owner.scope() == DataKeys.Scope.SUBJECT ? null : owner.id();
        DataKeyIssuer.Issue issue = issuer.make(owner.tenant(), owner.scope(), published,
                parent == null ? null : parent.key());
        Held held = new Held(issue.key(), batch, parent);
        batch.issues.add(issue);
        batch.owners.add(owner);
        keys.put(owner, held);
        return held;
    }

    /** A batch Kafka did not take: its keys are dropped, so the next call makes new ones. */
    private void forget(Batch batch) {
        synchronized (keys) {
            for (Owner owner : batch.owners) {
                Held held = keys.get(owner);
                if (held != null && held.batch() == batch) {
                    keys.remove(owner);
                }
            }
        }
    }

    @Override
    public void close() {
        envelopes.close();
    }
}
