package dev.hindsight.platform.erasure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hindsight.events.EventHeader;
import dev.hindsight.events.ProducerIdentity;
import dev.hindsight.events.erasures.ErasureApplied;
import dev.hindsight.events.erasures.ErasureEvent;
import dev.hindsight.events.erasures.ErasureRequested;
import dev.hindsight.events.erasures.ErasureSelector;
import dev.hindsight.platform.tenant.TenantId;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** What the erasure log tells every replica, from its events alone. */
class ErasureLogTest {

    private final ErasureLog log = new ErasureLog();

    @Test
    void anErasedSessionMessageAndTraceAreRefusedInTheirTenantOnly() {
        log.apply(requested("e-1", "tenant-a", ErasureSelector.SUBJECT, List.of("s-1"), List.of("m-1"),
                List.of("t-1")));

        assertThat(log.erased(TenantId.of("tenant-a"), "s-1")).isTrue();
        assertThat(log.erased(TenantId.of("tenant-a"), "m-1")).isTrue();
        assertThat(log.erased(TenantId.of("tenant-a"), "t-1")).isTrue();
        assertThat(log.erased(TenantId.of("tenant-a"), "s-2")).as("another session").isFalse();
        assertThat(log.erased(TenantId.of("tenant-b"), "s-1")).as("the same id in another tenant").isFalse();
        assertThat(log.erasedAmong(TenantId.of("tenant-a"), List.of("s-2", "s-1", "s-1"))).containsExactly("s-1");
    }

    @Test
    void anErasureIsCompleteOnceEveryReadModelAppliedItAndSaysWhatEachDeleted() {
        log.apply(requested("e-1", "tenant-a", ErasureSelector.SESSIONS, List.of("s-1"), List.of(), List.of()));
        log.apply(applied("e-1", "tenant-a", "query-service", Map.of("session", 1L)));
        log.apply(applied("e-1", "tenant-a", "evaluation-service", Map.of()));
        ErasureLog.Erasure pending = log.get(TenantId.of("tenant-a"), "e-1").orElseThrow();
        assertThat(pending.complete()).isFalse();

        log.apply(applied("e-1", "tenant-a", "memory-service", Map.of("memories_deleted", 2L)));
        // Said twice (a restart between applying and saying so): the first word stands.
        log.apply(applied("e-1", "tenant-a", "memory-service", Map.of("memories_deleted", 0L)));

        ErasureLog.Erasure done = log.get(TenantId.of("tenant-a"), "e-1").orElseThrow();
        assertThat(done.complete()).isTrue();
        assertThat(done.applied().get("memory-service").erased()).containsEntry("memories_deleted", 2L);
        assertThat(log.get(TenantId.of("tenant-b"), "e-1")).as("another tenant's erasure").isEmpty();
    }

    @Test
    void aTenantBeingErasedIsRefusedAtOnceAndItsKeysOnlyOnceTheErasureIsComplete() {
        log.apply(requested("e-t", "tenant-x", ErasureSelector.TENANT, List.of(), List.of(), List.of()));
        assertThat(log.erased(TenantId.of("tenant-x"), "any-session")).isTrue();
        assertThat(log.tenantErased(TenantId.of("tenant-x"))).as("the erasing key follows its erasure").isFalse();

        for (String service : ErasureLog.READ_MODELS) {
            log.apply(applied("e-t", "tenant-x", service, Map.of()));
        }
        assertThat(log.tenantErased(TenantId.of("tenant-x"))).isTrue();
        assertThat(log.tenantErased(TenantId.of("tenant-a"))).isFalse();
    }

    @Test
    void eachErasureReachesTheListenersOnceWhetherThisReplicaPublishedItOrReadItBack() {
        List<String> heard = new ArrayList<>();
        log.onRequested(erasure -> heard.add(erasure.id()));
        log.requested(new ErasureLog.Erasure("e-1", TenantId.of("tenant-a"), "key-1", Instant.now(), "SESSIONS",
                null, List.of("s-1"), List.of(), List.of(), List.of("k-1"), new java.util.concurrent.ConcurrentHashMap<>()));
        assertThat(log.erased(TenantId.of("tenant-a"), "s-1")).as("refused here before it is read back").isTrue();

        log.apply(requested("e-1", "tenant-a", ErasureSelector.SESSIONS, List.of("s-1"), List.of(), List.of()));
        log.apply(requested("e-2", "tenant-a", ErasureSelector.SESSIONS, List.of("s-2"), List.of(), List.of()));
        log.apply(requested("e-2", "tenant-a", ErasureSelector.SESSIONS, List.of("s-2"), List.of(), List.of()));

        assertThat(heard).containsExactly("e-1", "e-2");
        assertThat(log.newest(10)).extracting(ErasureLog.Erasure::id).containsExactlyInAnyOrder("e-1", "e-2");
    }

    @Test
    void anErasureWaitsForTheBatchesThatCheckedTheirEventsBeforeItsIdsWereRefused() {
        long before = log.batchBegins();
        log.apply(requested("e-1", "tenant-a", ErasureSelector.SESSIONS, List.of("s-1"), List.of(), List.of()));
        long after = log.batchBegins();
        ErasureLog.Erasure erasure = log.get(TenantId.of("tenant-a"), "e-1").orElseThrow();

        assertThat(log.earlierBatchesOver(erasure)).as("a batch that may still write s-1 is in flight").isFalse();
        log.batchEnded(before);
        assertThat(log.earlierBatchesOver(erasure)).as("the later batch refuses s-1 anyway").isTrue();
        log.batchEnded(after);
    }

    @Test
    void theReadModelsAreEveryWriterOfTheLogButIngest() {
        assertThat(ErasureLog.READ_MODELS).containsExactly("query-service", "evaluation-service", "memory-service");
    }

    private static ErasureEvent requested(String id, String tenant, ErasureSelector selector, List<String> sessions,
            List<String> messages, List<String> traces) {
        return event(id, tenant, ErasureRequested.newBuilder().setSelector(selector).setSessionIds(sessions)
                .setMessageIds(messages).setTraceIds(traces).setDestroyedKeys(List.of()).build());
    }

    private static ErasureEvent applied(String id, String tenant, String service, Map<String, Long> erased) {
        return event(id, tenant, ErasureApplied.newBuilder().setService(service)
                .setErased(new java.util.HashMap<>(erased)).build());
    }

    private static ErasureEvent event(String id, String tenant, Object payload) {
        Instant now = Instant.now();
        return ErasureEvent.newBuilder().setErasureId(id).setPayload(payload).setHeader(EventHeader.newBuilder()
                .setEventId(UUID.randomUUID()).setTenantId(tenant).setOccurredAt(now).setRecordedAt(now)
                .setProducer(ProducerIdentity.newBuilder().setPrincipal("key-1").build()).build()).build();
    }
}
