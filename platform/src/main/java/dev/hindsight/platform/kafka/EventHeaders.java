package dev.hindsight.platform.kafka;

import dev.hindsight.events.EventHeader;
import dev.hindsight.events.ProducerIdentity;
import dev.hindsight.platform.tenant.TenantId;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;

/** Builds the header every event carries; the tenant and principal always come from the authenticated caller. */
public final class EventHeaders {

    private EventHeaders() {
    }

    /**
     * @param eventId    producer-supplied idempotency key, or {@code null} to generate one
     * @param occurredAt producer clock, or {@code null} when the producer did not say (then the ingest clock)
     */
    public static EventHeader create(UUID eventId, TenantId tenant, String principal, String client, Instant occurredAt,
            Clock clock) {
        Instant recordedAt = clock.instant().truncatedTo(ChronoUnit.MILLIS);
        return EventHeader.newBuilder()
                .setEventId(eventId == null ? UUID.randomUUID() : eventId)
                .setTenantId(tenant.value())
                .setOccurredAt(occurredAt == null ? recordedAt : occurredAt.truncatedTo(ChronoUnit.MILLIS))
                .setRecordedAt(recordedAt)
                .setProducer(ProducerIdentity.newBuilder().setPrincipal(principal).setClient(client).build())
                .build();
    }
}
