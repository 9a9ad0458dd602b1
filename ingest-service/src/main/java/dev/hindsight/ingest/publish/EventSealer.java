package dev.hindsight.ingest.publish;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hindsight.events.EventHeader;
import dev.hindsight.events.HindsightTopic;
import dev.hindsight.events.reasoning.SessionStarted;
import dev.hindsight.events.spans.SpanRecorded;
import dev.hindsight.platform.crypto.DataKeys;
import dev.hindsight.platform.kafka.Publisher.Outgoing;
import dev.hindsight.platform.kafka.SealedEnvelopes;
import dev.hindsight.platform.tenant.TenantId;
import io.smallrye.common.annotation.Identifier;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.specific.SpecificRecordBase;
import org.eclipse.microprofile.config.Config;

/**
 * Seals what producers wrote before it is published (ADR 0027). Each event is sealed under the data key of what its
 * record key names: a session's events (and a message's decision sets and signals) under a session key, a trace's
 * spans under a trace key. A replica keeps the keys it issued at hand, a bounded number, and issues a key the first
 * time it meets a session, trace or message: concurrent requests for one share the one issuance, and the key is on
 * the key topic, acknowledged, before anything sealed under it is sent. Another replica, or this one after a restart
 * or once the key was dropped from its cache, issues its own: a session may have several keys, each event names its
 * own, and erasing the session destroys every key whose owner it is.
 */
@ApplicationScoped
public class EventSealer {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final DataKeyIssuer issuer;
    private final SealedEnvelopes envelopes;
    private final boolean enabled;
    private final Map<Owner, Uni<DataKeys.DataKey>> keys;

    /** What a data key seals: the events of one record key of one tenant. */
    private record Owner(TenantId tenant, DataKeys.Scope scope, String id) {
    }

    public EventSealer(DataKeyIssuer issuer, IngestConfig ingest, Config config,
            @Identifier("default-kafka-broker") Map<String, Object> kafka) {
        this.issuer = issuer;
        this.enabled = ingest.seal();
        this.envelopes = enabled ? new SealedEnvelopes(kafka, config) : null;
        int capacity = ingest.dataKeyCacheSize();
        this.keys = new LinkedHashMap<>(1024, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Owner, Uni<DataKeys.DataKey>> eldest) {
                return size() > capacity;
            }
        };
    }

    /**
     * {@code events}, to be published to {@code topic}, sealed (or as they are when sealing is off); completes once
     * every key they need is durable. Fails when a key cannot be issued (Kafka away): nothing was sent.
     */
    public <T extends SpecificRecordBase> Uni<List<Outgoing<T>>> seal(String topic, List<Outgoing<T>> events) {
        if (!enabled || events.isEmpty()) {
            return Uni.createFrom().item(events);
        }
        Map<Owner, Uni<DataKeys.DataKey>> needed = new HashMap<>();
        List<Owner> owners = new ArrayList<>(events.size());
        for (Outgoing<T> event : events) {
            HindsightTopic kind = HindsightTopic.byEnvelope(event.value().getSchema().getFullName()).orElseThrow();
            EventHeader header = (EventHeader) event.value().get("header");
            Owner owner = new Owner(TenantId.of(header.getTenantId()),
                    kind == HindsightTopic.SPANS ? DataKeys.Scope.TRACE : DataKeys.Scope.SESSION,
                    kind.recordKey(event.value()));
            owners.add(owner);
            String subject = subject(event.value().get("payload"));
            needed.computeIfAbsent(owner, o -> key(o, subject));
        }
        List<Owner> distinct = new ArrayList<>(needed.keySet());
        Context caller = Vertx.currentContext();
        // Sealing serializes each event in clear first, and the serializer may ask the registry (a blocking call):
        // never on the event loop. The answer comes back on the caller's context, as Publisher expects.
        Uni<List<Outgoing<T>>> sealing = Uni.join().all(distinct.stream().map(needed::get).toList()).andFailFast()
                .emitOn(Infrastructure.getDefaultWorkerPool()).map(opened -> {
            Map<Owner, DataKeys.DataKey> byOwner = new HashMap<>();
            for (int i = 0; i < distinct.size(); i++) {
                byOwner.put(distinct.get(i), opened.get(i));
            }
            List<Outgoing<T>> sealed = new ArrayList<>(events.size());
            for (int i = 0; i < events.size(); i++) {
                Outgoing<T> event = events.get(i);
                sealed.add(new Outgoing<>(event.key(),
                        envelopes.seal(topic, event.value(), byOwner.get(owners.get(i))), event.eventId()));
            }
            return sealed;
        });
        return caller == null ? sealing
                : sealing.emitOn(command -> caller.runOnContext(ignored -> command.run()));
    }

    /**
     * The person an event names as what its session or trace is about: a session start's subject; a span's
     * {@code user.id}, else {@code enduser.id}, on the span or its resource (the attributes are parsed only when they
     * mention one).
     */
    static String subject(Object payload) {
        if (payload instanceof SessionStarted started) {
            return started.getSubject();
        }
        if (payload instanceof SpanRecorded span) {
            for (String key : new String[] {"user.id", "enduser.id"}) {
                for (String attributes : new String[] {span.getAttributes(), span.getResourceAttributes()}) {
                    String id = attribute(attributes, key);
                    if (id != null && !id.isEmpty()) {
                        return id;
                    }
                }
            }
        }
        return null;
    }

    private static String attribute(String attributes, String key) {
        if (attributes == null || !attributes.contains("\"" + key + "\"")) {
            return null;
        }
        try {
            JsonNode value = JSON.readTree(attributes).get(key);
            return value != null && value.isValueNode() ? value.asText() : null;
        } catch (java.io.IOException e) {
            return null;
        }
    }

    /**
     * The owner's key at hand, or one being issued (shared by everyone asking meanwhile): under the key of
     * {@code subject} when the session names the person it is about and its key is not issued yet, so that destroying
     * the person's key erases the session. A subject's key is cached by the subject, in memory only: on the key topic
     * it names no owner, since the subject is personal; erasing a person finds it as the parent of their sessions'.
     */
    private Uni<DataKeys.DataKey> key(Owner owner, String subject) {
        synchronized (keys) {
            Uni<DataKeys.DataKey> known = keys.get(owner);
            if (known != null) {
                return known;
            }
            Uni<DataKeys.DataKey> parent = subject == null ? Uni.createFrom().nullItem()
                    : key(new Owner(owner.tenant(), DataKeys.Scope.SUBJECT, subject), null);
            String published = owner.scope() == DataKeys.Scope.SUBJECT ? null : owner.id();
            Uni<DataKeys.DataKey> issued = parent
                    .chain(above -> issuer.issue(owner.tenant(), owner.scope(), published, above))
                    .onFailure().invoke(failure -> forget(owner))
                    .memoize().indefinitely();
            keys.put(owner, issued);
            return issued;
        }
    }

    private void forget(Owner owner) {
        synchronized (keys) {
            keys.remove(owner);
        }
    }

    @PreDestroy
    void close() {
        if (envelopes != null) {
            envelopes.close();
        }
    }
}
