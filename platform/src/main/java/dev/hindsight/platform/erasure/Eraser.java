package dev.hindsight.platform.erasure;

import dev.hindsight.events.datakeys.ErasureReason;
import dev.hindsight.events.erasures.ErasureRequested;
import dev.hindsight.events.erasures.ErasureSelector;
import dev.hindsight.platform.kafka.DataKeyIssuer;
import dev.hindsight.platform.kafka.DataKeyScan;
import dev.hindsight.platform.tenant.TenantId;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The one way anything is erased (ADR 0028), whoever resolved what it covers: ingest-service for an erasure a tenant
 * asked for, query-service for sessions idle beyond their retention age (ADR 0029). Keys first: every live data key
 * owned by the covered sessions, messages and traces is destroyed (with, for a person, the person's keys; for a
 * tenant, all its keys), and only then is the erasure published on the erasure log, which every read model applies.
 * Blocking: it reads the key topic and waits for Kafka's acknowledgements.
 */
public final class Eraser {

    /** What an erasure covers, as resolved from the read model. */
    public record Covered(List<String> sessionIds, List<String> messageIds, List<String> traceIds) {
    }

    private final ErasureLog log;
    private final ErasurePublisher publisher;
    private final DataKeyIssuer issuer;
    private final DataKeyScan keys;
    private final Duration timeout;

    public Eraser(ErasureLog log, ErasurePublisher publisher, DataKeyIssuer issuer, DataKeyScan keys,
            Duration timeout) {
        this.log = log;
        this.publisher = publisher;
        this.issuer = issuer;
        this.keys = keys;
        this.timeout = timeout;
    }

    /**
     * Destroys the keys of what {@code covered} names in {@code tenant}, then publishes the erasure, which this
     * replica refuses at once (the others as they read it).
     *
     * @param selectorHash for a subject, its keyed hash; otherwise null
     */
    public ErasureLog.Erasure erase(TenantId tenant, String principal, ErasureSelector selector, String selectorHash,
            Covered covered) {
        Set<String> owners = new HashSet<>(covered.sessionIds());
        owners.addAll(covered.messageIds());
        owners.addAll(covered.traceIds());
        boolean wholeTenant = selector == ErasureSelector.TENANT;
        Set<String> destroyed = keys.live(tenant, owners, selector == ErasureSelector.SUBJECT, wholeTenant);
        issuer.destroyAll(tenant, destroyed, reason(selector)).await().atMost(timeout);
        String id = UUID.randomUUID().toString();
        ErasureRequested event = ErasureRequested.newBuilder()
                .setSelector(selector)
                .setSelectorHash(selectorHash)
                .setSessionIds(List.copyOf(covered.sessionIds()))
                .setMessageIds(List.copyOf(covered.messageIds()))
                .setTraceIds(List.copyOf(covered.traceIds()))
                .setDestroyedKeys(List.copyOf(destroyed))
                .build();
        publisher.publish(tenant, id, principal, event).await().atMost(timeout);
        ErasureLog.Erasure erasure = new ErasureLog.Erasure(id, tenant, principal, Instant.now(), selector.name(),
                selectorHash, List.copyOf(covered.sessionIds()), List.copyOf(covered.messageIds()),
                List.copyOf(covered.traceIds()), List.copyOf(destroyed), new ConcurrentHashMap<>());
        log.requested(erasure);
        return erasure;
    }

    private static ErasureReason reason(ErasureSelector selector) {
        return switch (selector) {
            case TENANT -> ErasureReason.TENANT_ERASED;
            case SUBJECT -> ErasureReason.SUBJECT_ERASED;
            case SESSIONS -> ErasureReason.SESSION_ERASED;
            case RETENTION -> ErasureReason.RETENTION;
        };
    }
}
