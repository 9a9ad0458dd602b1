package dev.hindsight.ingest.publish;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hindsight.events.HindsightTopic;
import dev.hindsight.events.datakeys.DataKeyEvent;
import dev.hindsight.events.reasoning.SessionStarted;
import dev.hindsight.events.spans.SpanRecorded;
import dev.hindsight.platform.crypto.DataKeys;
import dev.hindsight.platform.crypto.Kms;
import dev.hindsight.platform.erasure.ErasureLog;
import dev.hindsight.platform.kafka.DataKeyIssuer;
import dev.hindsight.platform.kafka.EventSealer;
import dev.hindsight.platform.kafka.Publisher.Outgoing;
import io.smallrye.common.annotation.Identifier;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.kafka.KafkaClientService;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.util.List;
import java.util.Map;
import org.apache.avro.specific.SpecificRecordBase;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.reactive.messaging.Channel;

/**
 * Seals what producers wrote before it is published (ADR 0027): a session's events (and a message's decision sets and
 * signals) under a session key, a trace's spans under a trace key, each wrapped under the key of the person the
 * session or trace is about when the producer names one. Keys are made and published by {@link DataKeyIssuer}, held by
 * {@link EventSealer}.
 */
@ApplicationScoped
public class EventSealing {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String PRINCIPAL = "hindsight-ingest";

    /** Ingest's keys: spans under their trace's, everything else under its session's; a subject when named. */
    static final EventSealer.KeyPolicy POLICY = new EventSealer.KeyPolicy() {
        @Override
        public DataKeys.Scope scope(HindsightTopic topic) {
            return topic == HindsightTopic.SPANS ? DataKeys.Scope.TRACE : DataKeys.Scope.SESSION;
        }

        @Override
        public String subject(SpecificRecordBase envelope) {
            return EventSealing.subject(envelope.get("payload"));
        }
    };

    private final EventSealer sealer;

    public EventSealing(DataKeyIssuer issuer, IngestConfig ingest, Config config,
            @Identifier("default-kafka-broker") Map<String, Object> kafka, ErasureLog erasures) {
        this.sealer = ingest.seal()
                ? new EventSealer(issuer, POLICY, kafka, config)
                : null;
        if (sealer != null) {
            // On every replica, as it reads the erasure log: no key it holds may be a destroyed one.
            erasures.onRequested(erasure -> sealer.forget(java.util.Set.copyOf(erasure.destroyedKeys())));
        }
    }

    /** The data keys' issuer; the emitter is injected so that SmallRye creates the channel. */
    @Produces
    @Singleton
    static DataKeyIssuer issuer(Kms kms, KafkaClientService kafka, Config config, IngestConfig ingest,
            @Channel(DataKeyIssuer.CHANNEL) MutinyEmitter<DataKeyEvent> channel) {
        return DataKeyIssuer.onChannel(kms, PRINCIPAL, kafka, config, ingest.ackTimeout());
    }

    /**
     * {@code events}, to be published to {@code topic}, sealed (or as they are when sealing is off); completes once
     * every key they need is durable. Fails when a key cannot be issued (Kafka away): nothing was sent.
     */
    public <T extends SpecificRecordBase> Uni<List<Outgoing<T>>> seal(String topic, List<Outgoing<T>> events) {
        return sealer == null ? Uni.createFrom().item(events) : sealer.seal(topic, events);
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

    @PreDestroy
    void close() {
        if (sealer != null) {
            sealer.close();
        }
    }
}
