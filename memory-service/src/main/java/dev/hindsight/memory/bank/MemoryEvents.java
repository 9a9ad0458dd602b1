package dev.hindsight.memory.bank;

import dev.hindsight.events.EventHeader;
import dev.hindsight.events.memory.Embedding;
import dev.hindsight.events.memory.MemoryEvent;
import dev.hindsight.events.memory.MemorySignalKind;
import dev.hindsight.events.memory.MemorySignalRecorded;
import dev.hindsight.events.memory.WeightVotes;
import dev.hindsight.memorymodel.events.EmbeddingVectors;
import dev.hindsight.platform.kafka.EventHeaders;
import dev.hindsight.platform.tenant.TenantId;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.UUID;

/** Builds hindsight.memory.v1 events. Ids derived from what caused an event make a retried job publish the same event. */
public final class MemoryEvents {

    /** The producer principal of events memory-service decides on its own (distillation, session outcomes). */
    public static final String SERVICE_PRINCIPAL = "memory-service";

    /**
     * The {@code via} of a memory written again whose first recording did not say (recorded before the database kept
     * it): a projection that knows better keeps what it knows.
     */
    public static final String UNKNOWN_VIA = "unknown";

    private MemoryEvents() {
    }

    /** A stable id for the event {@code parts} describe: the same parts give the same id on every retry. */
    public static UUID derivedId(String... parts) {
        return UUID.nameUUIDFromBytes(String.join("\u001f", parts).getBytes(StandardCharsets.UTF_8));
    }

    public static EventHeader header(UUID eventId, TenantId tenant, String principal, String client, Clock clock) {
        return EventHeaders.create(eventId, tenant, principal, client, null, clock);
    }

    public static MemoryEvent event(EventHeader header, String project, UUID memoryId, Object payload) {
        return MemoryEvent.newBuilder().setHeader(header).setProjectId(project)
                .setMemoryId(memoryId == null ? null : memoryId.toString()).setPayload(payload).build();
    }

    /** Kafka key: the memory id, or {@code project:<id>} for a purge (which has no memory). */
    public static String key(MemoryEvent event) {
        return event.getMemoryId() != null ? event.getMemoryId() : "project:" + event.getProjectId();
    }

    public static Embedding embedding(String modelId, float[] vector) {
        return EmbeddingVectors.embedding(modelId, vector);
    }

    public static MemorySignalRecorded signal(MemorySignalKind kind, boolean positive, String sessionId, String source,
            WeightVotes votes) {
        return MemorySignalRecorded.newBuilder().setKind(kind).setPositive(positive).setSessionId(sessionId)
                .setSource(source).setWeightVotes(votes).build();
    }
}
