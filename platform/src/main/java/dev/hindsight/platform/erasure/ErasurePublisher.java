package dev.hindsight.platform.erasure;

import dev.hindsight.events.EventHeader;
import dev.hindsight.events.HindsightTopic;
import dev.hindsight.events.erasures.ErasureEvent;
import dev.hindsight.platform.kafka.EventHeaders;
import dev.hindsight.platform.kafka.OwnedTopics;
import dev.hindsight.platform.kafka.Publisher;
import dev.hindsight.platform.kafka.Publisher.Outgoing;
import dev.hindsight.platform.tenant.TenantId;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.kafka.KafkaClientService;
import io.smallrye.reactive.messaging.kafka.KafkaProducer;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.reactive.messaging.Channel;

/**
 * Writes the erasure log ({@code hindsight.erasures.v1}, channel {@link #CHANNEL}), keyed by erasure id; answered
 * once Kafka acknowledged the event.
 */
@ApplicationScoped
public class ErasurePublisher {

    /** The channel every service configures for the erasure log. */
    public static final String CHANNEL = "erasures";
    private static final Duration ACK_TIMEOUT = Duration.ofSeconds(30);

    private final KafkaClientService kafka;
    private final String topic;
    private final Clock clock = Clock.systemUTC();

    /** {@code channel} is injected only so that SmallRye creates the channel's producer. */
    public ErasurePublisher(KafkaClientService kafka, Config config,
            @Channel(CHANNEL) MutinyEmitter<ErasureEvent> channel) {
        this.kafka = kafka;
        this.topic = OwnedTopics.name(config, HindsightTopic.ERASURES);
    }

    /** Publishes {@code payload} (an {@code ErasureRequested} or {@code ErasureApplied}) of erasure {@code id}. */
    public Uni<Void> publish(TenantId tenant, String id, String principal, Object payload) {
        KafkaProducer<String, ErasureEvent> producer = kafka.getProducer(CHANNEL);
        if (producer == null) {
            return Uni.createFrom().failure(new IllegalStateException("No Kafka producer for channel " + CHANNEL));
        }
        UUID eventId = UUID.randomUUID();
        EventHeader header = EventHeaders.create(eventId, tenant, principal, null, Instant.now(clock), clock);
        ErasureEvent event = ErasureEvent.newBuilder().setHeader(header).setErasureId(id).setPayload(payload).build();
        return Publisher.sendAll(producer, topic, List.of(new Outgoing<>(id, event, eventId.toString())))
                .ifNoItem().after(ACK_TIMEOUT).fail().replaceWithVoid();
    }
}
