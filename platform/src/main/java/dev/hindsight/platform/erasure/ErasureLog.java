package dev.hindsight.platform.erasure;

import dev.hindsight.events.HindsightTopic;
import dev.hindsight.events.erasures.ErasureApplied;
import dev.hindsight.events.erasures.ErasureEvent;
import dev.hindsight.events.erasures.ErasureRequested;
import dev.hindsight.platform.tenant.TenantId;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * The erasures of {@code hindsight.erasures.v1} as every replica of every service knows them (ADR 0028): what each
 * erased, which read models have applied it, the ids no consumer may write again (a session, message or trace erased,
 * or every id of a tenant being erased), and the tenants whose erasure is complete, whose API keys no longer work.
 * Erasures are rare and hold ids only, so all of them are kept in memory, as the API keys are.
 */
@ApplicationScoped
public class ErasureLog {

    /** The services that must apply an erasure before it is complete: every writer of the log but ingest. */
    public static final List<String> READ_MODELS = HindsightTopic.ERASURES.writers().stream()
            .filter(s -> !s.equals(HindsightTopic.ERASURES.writer())).toList();

    /** What one read model did. */
    public record Applied(String service, Instant at, Map<String, Long> erased) {
    }

    /** One erasure, as requested and as applied so far. */
    public record Erasure(String id, TenantId tenant, String principal, Instant requestedAt, String selector,
            String selectorHash, List<String> sessionIds, List<String> messageIds, List<String> traceIds,
            List<String> destroyedKeys, Map<String, Applied> applied) {

        /** Whether the whole tenant is erased. */
        public boolean tenantWide() {
            return "TENANT".equals(selector);
        }

        /** Whether every read model has applied it. */
        public boolean complete() {
            return applied.keySet().containsAll(READ_MODELS);
        }

        /** The ids it erased: sessions, messages and traces, the record keys of everything they wrote. */
        public Set<String> owners() {
            Set<String> owners = new java.util.HashSet<>(sessionIds);
            owners.addAll(messageIds);
            owners.addAll(traceIds);
            return owners;
        }
    }

    private final Map<String, Erasure> byId = new ConcurrentHashMap<>();
    /** Per tenant, every id erased. */
    private final Map<String, Set<String>> erasedOwners = new ConcurrentHashMap<>();
    /** Tenants with a tenant-wide erasure requested: nothing of theirs is written any more. */
    private final Set<String> erasingTenants = ConcurrentHashMap.newKeySet();
    /** Tenants whose erasure is complete: their API keys stop working. */
    private final Set<String> erasedTenants = ConcurrentHashMap.newKeySet();
    private final List<Consumer<Erasure>> listeners = new CopyOnWriteArrayList<>();
    /** Per erasure, the epoch from which every consumer batch refuses its ids. */
    private final Map<String, Long> refusedFrom = new ConcurrentHashMap<>();
    /** Incremented whenever ids are added to what is refused. */
    private final java.util.concurrent.atomic.AtomicLong epoch = new java.util.concurrent.atomic.AtomicLong();
    /** Consumer batches in flight, by the epoch they checked their events against. */
    private final java.util.concurrent.ConcurrentSkipListMap<Long, java.util.concurrent.atomic.AtomicInteger> inFlight =
            new java.util.concurrent.ConcurrentSkipListMap<>();
    private volatile java.util.function.BooleanSupplier caughtUp = () -> true;
    private volatile java.util.function.Supplier<java.util.concurrent.CompletableFuture<Void>> readTo =
            () -> java.util.concurrent.CompletableFuture.completedFuture(null);

    /** Applies one event of the log; applying one twice changes nothing. */
    public void apply(ErasureEvent event) {
        String id = event.getErasureId();
        String tenant = event.getHeader().getTenantId();
        if (event.getPayload() instanceof ErasureRequested requested) {
            Erasure erasure = new Erasure(id, TenantId.of(tenant), event.getHeader().getProducer().getPrincipal(),
                    event.getHeader().getRecordedAt(), requested.getSelector().name(), requested.getSelectorHash(),
                    List.copyOf(requested.getSessionIds()), List.copyOf(requested.getMessageIds()),
                    List.copyOf(requested.getTraceIds()), List.copyOf(requested.getDestroyedKeys()),
                    new ConcurrentHashMap<>());
            Erasure before = byId.putIfAbsent(id, erasure);
            if (before != null) {
                return;
            }
            remember(erasure);
            listeners.forEach(listener -> listener.accept(erasure));
        } else if (event.getPayload() instanceof ErasureApplied applied) {
            Erasure erasure = byId.get(id);
            if (erasure == null) {
                return;
            }
            Map<String, Long> counts = new LinkedHashMap<>();
            applied.getErased().forEach((k, v) -> counts.put(k.toString(), v));
            erasure.applied().putIfAbsent(applied.getService(),
                    new Applied(applied.getService(), event.getHeader().getRecordedAt(), Map.copyOf(counts)));
            if (erasure.tenantWide() && erasure.complete()) {
                erasedTenants.add(tenant);
            }
        } else {
            throw new IllegalArgumentException("unknown erasure event " + event.getPayload());
        }
    }

    /**
     * Takes in an erasure this replica just published, before its event is read back: its ids are refused at once on
     * this replica, and its status answered here. Its event, read back later, changes nothing.
     */
    public void requested(Erasure erasure) {
        if (byId.putIfAbsent(erasure.id(), erasure) == null) {
            remember(erasure);
            listeners.forEach(listener -> listener.accept(erasure));
        }
    }

    private void remember(Erasure erasure) {
        refusedFrom.put(erasure.id(), epoch.incrementAndGet());
        String tenant = erasure.tenant().value();
        if (erasure.tenantWide()) {
            erasingTenants.add(tenant);
        }
        erasedOwners.computeIfAbsent(tenant, t -> ConcurrentHashMap.newKeySet()).addAll(erasure.owners());
    }

    /** Whether what {@code tenant} wrote under record key {@code owner} (a session, message or trace id) is erased. */
    public boolean erased(TenantId tenant, String owner) {
        if (erasingTenants.contains(tenant.value())) {
            return true;
        }
        Set<String> owners = erasedOwners.get(tenant.value());
        return owners != null && owner != null && owners.contains(owner);
    }

    /** Whether the tenant's erasure is complete: none of its API keys works any more. */
    public boolean tenantErased(TenantId tenant) {
        return erasedTenants.contains(tenant.value());
    }

    /**
     * A consumer batch begins: it checks its events against what is refused now, and must call {@link #batchEnded}
     * with the answer once its transaction is over (committed or not).
     */
    public long batchBegins() {
        while (true) {
            long current = epoch.get();
            inFlight.computeIfAbsent(current, e -> new java.util.concurrent.atomic.AtomicInteger()).incrementAndGet();
            if (epoch.get() == current) {
                return current;
            }
            // Ids were added meanwhile: check against them instead.
            batchEnded(current);
        }
    }

    /** The batch begun at {@code ticket} is over. */
    public void batchEnded(long ticket) {
        inFlight.computeIfPresent(ticket, (e, count) -> count.decrementAndGet() == 0 ? null : count);
    }

    /**
     * Whether every consumer batch that checked its events before {@code erasure}'s ids were refused is over: until
     * then one of them may still commit a row of those ids, so an applier deletes again after it (ADR 0028).
     */
    public boolean earlierBatchesOver(Erasure erasure) {
        Long from = refusedFrom.get(erasure.id());
        return from == null || inFlight.headMap(from, false).isEmpty();
    }

    /** One erasure of {@code tenant}. */
    public Optional<Erasure> get(TenantId tenant, String id) {
        return Optional.ofNullable(byId.get(id)).filter(e -> e.tenant().equals(tenant));
    }

    /**
     * Completes once everything on the log now has been read: what a reader asks before it answers that an erasure
     * another replica accepted does not exist.
     */
    public java.util.concurrent.CompletableFuture<Void> readToEnd() {
        return readTo.get();
    }

    /** The erased ids of {@code owners} (record keys) in {@code tenant}: all of them while the tenant is erased. */
    public List<String> erasedAmong(TenantId tenant, java.util.Collection<String> owners) {
        return owners.stream().filter(owner -> erased(tenant, owner)).distinct().toList();
    }

    /** The newest erasures, all tenants (the operations page). */
    public List<Erasure> newest(int limit) {
        List<Erasure> all = new ArrayList<>(byId.values());
        all.sort(Comparator.comparing(Erasure::requestedAt).reversed().thenComparing(Erasure::id));
        return Collections.unmodifiableList(all.subList(0, Math.min(limit, all.size())));
    }

    /** Called with every erasure requested, on the feed's thread, as it is read (again at each start). */
    public void onRequested(Consumer<Erasure> listener) {
        listeners.add(listener);
    }

    /** Whether every erasure the log held when this service started has been read. */
    public boolean caughtUp() {
        return caughtUp.getAsBoolean();
    }

    void follow(java.util.function.BooleanSupplier caughtUp,
            java.util.function.Supplier<java.util.concurrent.CompletableFuture<Void>> readTo) {
        this.caughtUp = caughtUp;
        this.readTo = readTo;
    }
}
