package dev.hindsight.memorymodel.events;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hindsight.events.EventHeader;
import dev.hindsight.events.ProducerIdentity;
import dev.hindsight.events.memory.MemoryEvent;
import dev.hindsight.events.memory.MemorySignalKind;
import dev.hindsight.events.memory.MemorySignalRecorded;
import dev.hindsight.events.memory.WeightVote;
import dev.hindsight.events.memory.WeightVotes;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class MemoryEventColumnsTest {

    @Test
    void aRunOfSignalsBecomesOneArrayPerColumnInOrder() {
        UUID first = UUID.randomUUID();
        UUID second = UUID.randomUUID();
        Instant at = Instant.parse("2026-11-26T10:15:30.123Z");
        MemoryEvent usage = event("tenant-a", first, at, MemorySignalKind.USAGE, true, "s-1", "search");
        MemoryEvent outcome = event("tenant-b", second, at.plusSeconds(1), MemorySignalKind.OUTCOME, false, null,
                "session_outcome");

        SignalColumns c = SignalColumns.of(List.of(usage, outcome));

        assertThat(c.tenants()).containsExactly("tenant-a", "tenant-b");
        assertThat(c.eventIds()).containsExactly(usage.getHeader().getEventId(), outcome.getHeader().getEventId());
        assertThat(c.memoryIds()).containsExactly(first, second);
        assertThat(c.kinds()).containsExactly("usage", "outcome");
        assertThat(c.positives()).containsExactly(true, false);
        assertThat(c.sessionIds()).containsExactly("s-1", null);
        assertThat(c.sources()).containsExactly("search", "session_outcome");
        assertThat(c.times()).containsExactly(OffsetDateTime.of(2026, 11, 26, 10, 15, 30, 123_000_000, ZoneOffset.UTC),
                OffsetDateTime.of(2026, 11, 26, 10, 15, 31, 123_000_000, ZoneOffset.UTC));
        assertThat(SignalColumns.of(List.of()).tenants()).isEmpty();
    }

    @Test
    void votesAddOneToAlphaWhenAgreedAndToBetaWhenContradicted() {
        WeightVotes votes = WeightVotes.newBuilder().setExplicit(WeightVote.ABSTAINED).setUsage(WeightVote.AGREED)
                .setOutcome(WeightVote.CONTRADICTED).build();

        assertThat(WeightLearning.increments(votes)).containsExactly(0.0, 0.0, 1.0, 0.0, 0.0, 1.0);
        assertThat(WeightLearning.priors()).as("priors: explicit Beta(7,3), usage and outcome Beta(5,5)")
                .containsExactly(7.0, 3.0, 5.0, 5.0, 5.0, 5.0);
    }

    private static MemoryEvent event(String tenant, UUID memory, Instant at, MemorySignalKind kind, boolean positive,
            String session, String source) {
        return MemoryEvent.newBuilder()
                .setHeader(EventHeader.newBuilder().setEventId(UUID.randomUUID()).setTenantId(tenant).setOccurredAt(at)
                        .setRecordedAt(at).setProducer(ProducerIdentity.newBuilder().setPrincipal("memory-service")
                                .build()).build())
                .setProjectId("repo").setMemoryId(memory.toString())
                .setPayload(MemorySignalRecorded.newBuilder().setKind(kind).setPositive(positive).setSessionId(session)
                        .setSource(source).build())
                .build();
    }
}
