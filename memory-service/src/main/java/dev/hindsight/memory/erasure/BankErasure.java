package dev.hindsight.memory.erasure;

import dev.hindsight.events.datakeys.ErasureReason;
import dev.hindsight.events.memory.Embedding;
import dev.hindsight.events.memory.MemoryDeleted;
import dev.hindsight.events.memory.MemoryEvent;
import dev.hindsight.events.memory.MemoryOrigin;
import dev.hindsight.events.memory.MemoryOutcome;
import dev.hindsight.events.memory.MemoryRecorded;
import dev.hindsight.events.memory.MemoryRestated;
import dev.hindsight.events.memory.MemorySignalTotals;
import dev.hindsight.events.memory.MemoryTextPart;
import dev.hindsight.memory.bank.MemoryEvents;
import dev.hindsight.memory.bank.MemoryLog;
import dev.hindsight.memory.bank.VectorKeeper;
import dev.hindsight.memory.erasure.Affected.Fate;
import dev.hindsight.memory.erasure.Affected.Totals;
import dev.hindsight.memory.store.VectorStore;
import dev.hindsight.memorymodel.embedding.Embeddings;
import dev.hindsight.memorymodel.search.SearchRule;
import dev.hindsight.platform.erasure.ErasureApplier;
import dev.hindsight.platform.erasure.ErasureLog;
import dev.hindsight.platform.tenant.TenantId;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import org.jboss.logging.Logger;

/**
 * Applies an erasure to memory-service (ADR 0028), in one transaction that first claims it in table {@code erasure}:
 * a replica that finds it claimed (waiting, if another is applying it, until that one commits) changes nothing and
 * drops the keys the other destroyed from the keys it holds.
 *
 * <p>Erasing sessions (one by one, or a person's): every memory they reach is locked and decided on
 * ({@link Affected#fate}). Through the log, as every change of the bank (ADR 0007), so that query-service and a rebuild
 * apply the same: a memory whose text came from an erased session is deleted ({@code MemoryDeleted}); every other one
 * is written again whole ({@code MemoryRestated}) without the erased sources and without the signals the erased
 * sessions gave, which their confidence no longer counts (the rollup keeps signals per session for this). Those
 * events are sealed under keys made after the erasure began, then every other live key of a deleted or re-keyed
 * memory is destroyed, of every generation and whichever replica issued it: its earlier events held the erased text.
 * So are the keys of memories deleted before, whose events came from an erased session ({@code deleted_memory}). What
 * the distiller kept of the sessions, their jobs and which memories they retrieved are deleted outright: they are this
 * service's own state, not a projection of its topic.
 *
 * <p>Erasing a tenant deletes everything the service holds of it and destroys every key of the tenant still live
 * (ingest destroyed them all before the erasure reached the log; these were issued since). Nothing is published: the
 * consumer skeleton refuses every event of an erased tenant, here and in query-service, which deletes the tenant's
 * memories itself.
 */
@ApplicationScoped
class BankErasure implements ErasureApplier {

    private static final Logger LOG = Logger.getLogger(BankErasure.class);
    /** Events per publication: one acknowledgement each, well within the log's timeout. */
    private static final int BATCH = 200;

    private static final String CLAIM = """
            INSERT INTO erasure (erasure_id, tenant_id, selector, requested_at) VALUES ($1, $2, $3, $4)
            ON CONFLICT (erasure_id) DO NOTHING RETURNING erasure_id""";
    private static final String DESTROYED_BEFORE = """
            SELECT destroyed_keys FROM erasure WHERE erasure_id = $1 AND tenant_id = $2""";
    private static final String RECORD = """
            UPDATE erasure SET erased = $3, destroyed_keys = $4, applied_at = now()
            WHERE erasure_id = $1 AND tenant_id = $2""";
    /** Every memory an erased session wrote, is a source of, or gave a signal; locked until the erasure commits. */
    private static final String AFFECTED = "SELECT " + Affected.COLUMNS + """

            FROM memory m
            WHERE m.tenant_id = $1
              AND (m.source_session_ids && $2 OR m.title_session_ids && $2 OR m.description_session_ids && $2
                   OR m.content_session_ids && $2
                   OR EXISTS (SELECT 1 FROM memory_signal s WHERE s.memory_id = m.id AND s.session_id = ANY($2))
                   OR EXISTS (SELECT 1 FROM memory_signal_aggregate a
                              WHERE a.memory_id = m.id AND a.session_id = ANY($2)))
            ORDER BY m.id
            FOR UPDATE OF m""";
    /** Their signals by session ('' for none), individual and rolled up together. */
    private static final String SIGNALS = """
            SELECT memory_id, session_id, sum(ep)::bigint, sum(en)::bigint, sum(u)::bigint, sum(op)::bigint,
                   sum(onn)::bigint
            FROM (SELECT s.memory_id, coalesce(s.session_id, '') AS session_id,
                         count(*) FILTER (WHERE s.kind = 'explicit' AND s.positive) AS ep,
                         count(*) FILTER (WHERE s.kind = 'explicit' AND NOT s.positive) AS en,
                         count(*) FILTER (WHERE s.kind = 'usage') AS u,
                         count(*) FILTER (WHERE s.kind = 'outcome' AND s.positive) AS op,
                         count(*) FILTER (WHERE s.kind = 'outcome' AND NOT s.positive) AS onn
                  FROM memory_signal s JOIN memory m ON m.id = s.memory_id
                  WHERE m.tenant_id = $1 AND s.memory_id = ANY($2)
                  GROUP BY s.memory_id, coalesce(s.session_id, '')
                  UNION ALL
                  SELECT a.memory_id, a.session_id, a.explicit_positive, a.explicit_negative, a.usage_count,
                         a.outcome_positive, a.outcome_negative
                  FROM memory_signal_aggregate a JOIN memory m ON m.id = a.memory_id
                  WHERE m.tenant_id = $1 AND a.memory_id = ANY($2)) t
            GROUP BY memory_id, session_id""";
    private static final String DELETED_BEFORE = """
            SELECT memory_id FROM deleted_memory WHERE tenant_id = $1 AND session_ids && $2""";
    private static final String FORGET_DELETED = """
            DELETE FROM deleted_memory WHERE tenant_id = $1 AND (memory_id = ANY($2) OR session_ids && $3)""";

    /**
     * A statement deleting some of the service's own state, and the name its count goes under; {@code deleted}: it
     * takes the memories deleted here as $3.
     */
    private record Step(String counted, String sql, boolean deleted) {

        Step(String counted, String sql) {
            this(counted, sql, false);
        }
    }

    /** What the service keeps of the erased sessions ($2), and which memories deleted here ($3) they retrieved. */
    private static final List<Step> SESSION_STATE = List.of(
            new Step("tracked_turns", "DELETE FROM tracked_turn WHERE tenant_id = $1 AND session_id = ANY($2)"),
            new Step("tracked_activities",
                    "DELETE FROM tracked_activity WHERE tenant_id = $1 AND session_id = ANY($2)"),
            new Step("tracked_sessions", "DELETE FROM tracked_session WHERE tenant_id = $1 AND session_id = ANY($2)"),
            new Step("memory_jobs", "DELETE FROM memory_job WHERE tenant_id = $1 AND session_id = ANY($2)"),
            new Step("session_memory_uses", """
                    DELETE FROM session_memory_use
                    WHERE tenant_id = $1 AND (session_id = ANY($2) OR memory_id = ANY($3))""", true));
    /** Everything of a tenant; a memory's signals and aggregates go with it (foreign keys). */
    private static final List<Step> TENANT_STATE = List.of(
            new Step("memories_deleted", "DELETE FROM memory WHERE tenant_id = $1"),
            new Step("memory_vectors", "DELETE FROM memory_vector WHERE tenant_id = $1"),
            new Step("project_weights", "DELETE FROM project_weights WHERE tenant_id = $1"),
            new Step("project_purges", "DELETE FROM project_purge WHERE tenant_id = $1"),
            new Step("deleted_memories", "DELETE FROM deleted_memory WHERE tenant_id = $1"),
            new Step("session_memory_uses", "DELETE FROM session_memory_use WHERE tenant_id = $1"),
            new Step("tracked_turns", "DELETE FROM tracked_turn WHERE tenant_id = $1"),
            new Step("tracked_activities", "DELETE FROM tracked_activity WHERE tenant_id = $1"),
            new Step("tracked_sessions", "DELETE FROM tracked_session WHERE tenant_id = $1"),
            new Step("memory_jobs", "DELETE FROM memory_job WHERE tenant_id = $1"));

    private final Pool pool;
    private final MemoryLog log;
    private final VectorStore vectors;
    private final VectorKeeper generations;
    private final Embeddings embeddings;
    private final Clock clock = Clock.systemUTC();

    BankErasure(Pool pool, MemoryLog log, VectorStore vectors, VectorKeeper generations, Embeddings embeddings) {
        this.pool = pool;
        this.log = log;
        this.vectors = vectors;
        this.generations = generations;
        this.embeddings = embeddings;
    }

    @Override
    public Uni<Optional<Map<String, Long>>> apply(ErasureLog.Erasure erasure) {
        TenantId tenant = erasure.tenant();
        return pool.withTransaction(tx -> tx.preparedQuery(CLAIM).execute(Tuple.of(erasure.id(), tenant.value(),
                        erasure.selector(), OffsetDateTime.ofInstant(erasure.requestedAt(), ZoneOffset.UTC)))
                .flatMap(claimed -> {
                    if (claimed.size() == 0) {
                        return appliedBefore(tx, erasure);
                    }
                    Map<String, Long> erased = new TreeMap<>();
                    Uni<Set<String>> destroyed = erasure.tenantWide() ? tenant(tx, tenant, erased)
                            : sessions(tx, erasure, erased);
                    return destroyed.flatMap(keys -> {
                        erased.put("data_keys_destroyed", (long) keys.size());
                        return tx.preparedQuery(RECORD).execute(Tuple.of(erasure.id(), tenant.value(),
                                        new JsonObject(new HashMap<>(erased)), keys.toArray(String[]::new)))
                                .map(done -> {
                                    LOG.infof("Erasure %s applied to tenant %s's memories: %s", erasure.id(),
                                            tenant.value(), erased);
                                    return Optional.of(Map.copyOf(erased));
                                });
                    });
                }));
    }

    /**
     * Applied by another replica, or before a restart: the keys it destroyed may still be at hand here (a replica
     * keeps the keys it issued), and nothing may be sealed under them any more.
     */
    private Uni<Optional<Map<String, Long>>> appliedBefore(SqlClient tx, ErasureLog.Erasure erasure) {
        return tx.preparedQuery(DESTROYED_BEFORE).execute(Tuple.of(erasure.id(), erasure.tenant().value()))
                .map(rows -> {
                    if (rows.size() == 1) {
                        log.forgetKeys(Set.of(rows.iterator().next().getArrayOfStrings(0)));
                    }
                    return Optional.empty();
                });
    }

    private Uni<Set<String>> tenant(SqlClient tx, TenantId tenant, Map<String, Long> erased) {
        Uni<Void> chain = Uni.createFrom().voidItem();
        for (Step step : TENANT_STATE) {
            chain = chain.flatMap(v -> tx.preparedQuery(step.sql()).execute(Tuple.of(tenant.value()))
                    .invoke(done -> erased.put(step.counted(), (long) done.rowCount())).replaceWithVoid());
        }
        // From now on nothing of the tenant is sealed under a key this replica had at hand.
        log.freshKeys();
        return chain.flatMap(v -> blocking(() -> log.liveKeys(tenant, Set.of(), true)))
                .flatMap(live -> log.destroyKeys(tenant, live, ErasureReason.TENANT_ERASED).replaceWith(live));
    }

    /** What writing the reached memories again did: the keys it destroyed, and the memories it deleted. */
    private record Rewritten(Set<String> destroyed, UUID[] deleted) {
    }

    private Uni<Set<String>> sessions(SqlClient tx, ErasureLog.Erasure erasure, Map<String, Long> erased) {
        TenantId tenant = erasure.tenant();
        // Every id the log now refuses for the tenant: the sessions, their messages and traces (a signal may name any).
        String[] ids = erasure.owners().toArray(String[]::new);
        return tx.preparedQuery(AFFECTED).execute(Tuple.of(tenant.value(), ids)).flatMap(rows -> {
            List<Affected> affected = new ArrayList<>(rows.size());
            for (Row row : rows) {
                affected.add(Affected.of(row));
            }
            UUID[] affectedIds = affected.stream().map(Affected::id).toArray(UUID[]::new);
            return tx.preparedQuery(SIGNALS).execute(Tuple.of(tenant.value(), affectedIds))
                    .flatMap(signals -> tx.preparedQuery(DELETED_BEFORE).execute(Tuple.of(tenant.value(), ids))
                            .flatMap(deletedBefore -> {
                                Set<String> owners = new HashSet<>();
                                for (Row row : deletedBefore) {
                                    owners.add(row.getUUID(0).toString());
                                }
                                erased.put("deleted_memories_shredded", (long) owners.size());
                                return rewrite(tx, erasure, affected, bySession(signals), owners, erased);
                            }));
        }).flatMap(rewritten -> {
            Uni<Void> chain = Uni.createFrom().voidItem();
            for (Step step : SESSION_STATE) {
                Tuple args = step.deleted() ? Tuple.of(tenant.value(), ids, rewritten.deleted())
                        : Tuple.of(tenant.value(), ids);
                chain = chain.flatMap(v -> tx.preparedQuery(step.sql()).execute(args)
                        .invoke(done -> erased.put(step.counted(), (long) done.rowCount())).replaceWithVoid());
            }
            // Their keys are destroyed: nothing is left to find by these sessions.
            return chain.flatMap(v -> tx.preparedQuery(FORGET_DELETED).execute(Tuple.of(tenant.value(),
                    rewritten.deleted(), ids))).replaceWith(rewritten.destroyed());
        });
    }

    /**
     * Publishes the deletions and the memories written again, applies them within {@code tx}, then destroys every
     * other live key of the memories deleted or re-keyed here (and of {@code deletedBefore}).
     */
    private Uni<Rewritten> rewrite(SqlClient tx, ErasureLog.Erasure erasure, List<Affected> affected,
            Map<UUID, Map<String, Totals>> signals, Set<String> deletedBefore, Map<String, Long> erased) {
        TenantId tenant = erasure.tenant();
        Set<String> ids = erasure.owners();
        Set<String> shredded = new HashSet<>(deletedBefore);
        List<UUID> deleted = new ArrayList<>();
        Map<Fate, Long> fates = new EnumMap<>(Fate.class);
        long subtracted = 0;
        List<Uni<MemoryEvent>> events = new ArrayList<>();
        for (Affected memory : affected) {
            Fate fate = memory.fate(ids);
            fates.merge(fate, 1L, Long::sum);
            Map<String, Totals> given = signals.getOrDefault(memory.id(), Map.of());
            for (Map.Entry<String, Totals> entry : given.entrySet()) {
                if (ids.contains(entry.getKey())) {
                    subtracted += entry.getValue().count();
                }
            }
            if (fate != Fate.RESTATED) {
                shredded.add(memory.id().toString());
            }
            if (fate == Fate.DELETED) {
                deleted.add(memory.id());
                events.add(Uni.createFrom().item(event(erasure, memory, "deleted", MemoryDeleted.newBuilder()
                        .setReason("erased (erasure " + erasure.id() + ")").build())));
            } else {
                events.add(restated(tx, erasure, memory, given));
            }
        }
        erased.put("memories_deleted", fates.getOrDefault(Fate.DELETED, 0L));
        erased.put("memories_rekeyed", fates.getOrDefault(Fate.REKEYED, 0L));
        erased.put("memories_restated", fates.getOrDefault(Fate.RESTATED, 0L));
        erased.put("signals_subtracted", subtracted);
        return Multi.createFrom().iterable(events).onItem().transformToUniAndConcatenate(e -> e).collect().asList()
                .flatMap(built -> {
                    // What is written again must not share a key with what is erased: keys made from now on.
                    log.freshKeys();
                    Set<String> used = new HashSet<>();
                    Uni<Void> published = Uni.createFrom().voidItem();
                    for (int from = 0; from < built.size(); from += BATCH) {
                        List<MemoryEvent> batch = built.subList(from, Math.min(built.size(), from + BATCH));
                        published = published.flatMap(v -> log.appendIn(tx, batch).invoke(used::addAll)
                                .replaceWithVoid());
                    }
                    return published.replaceWith(used);
                })
                // Read once the new events are out: every key issued for these memories until now, by any replica.
                .flatMap(used -> shredded.isEmpty() ? Uni.createFrom().item(Set.<String>of())
                        : blocking(() -> log.liveKeys(tenant, shredded, false)).map(live -> {
                            Set<String> destroy = new HashSet<>(live);
                            destroy.removeAll(used);
                            return destroy;
                        }))
                .flatMap(destroy -> log.destroyKeys(tenant, destroy, ErasureReason.MEMORY_DELETED)
                        .replaceWith(new Rewritten(destroy, deleted.toArray(UUID[]::new))));
    }

    /**
     * The memory as it stands, less what the erased sessions gave it: its sources without them, its signals by session
     * without theirs, the signal totals its row holds beyond what any session's rows account for (none, unless rows
     * were lost) kept as given by no session, and every vector it has.
     */
    private Uni<MemoryEvent> restated(SqlClient tx, ErasureLog.Erasure erasure, Affected memory,
            Map<String, Totals> given) {
        Set<String> ids = erasure.owners();
        Map<String, MemorySignalTotals> signals = new TreeMap<>();
        Totals attributed = Totals.ZERO;
        for (Map.Entry<String, Totals> entry : given.entrySet()) {
            attributed = attributed.plus(entry.getValue());
            if (!ids.contains(entry.getKey())) {
                signals.put(entry.getKey(), totals(entry.getValue()));
            }
        }
        Totals unattributed = memory.totals().minus(attributed);
        if (unattributed.count() > 0) {
            Totals none = given.getOrDefault("", Totals.ZERO).plus(unattributed);
            signals.put("", totals(none));
        }
        Map<String, List<MemoryTextPart>> text = new LinkedHashMap<>();
        memory.text().forEach((part, sessions) -> sessions.forEach(session ->
                text.computeIfAbsent(session, s -> new ArrayList<>()).add(part)));
        return vectors.of(tx, erasure.tenant(), memory.id()).flatMap(byModel -> {
            String model = generations.searchModel();
            if (byModel.isEmpty()) {
                // A memory holds a vector of the model it was recorded with; this one lost it somehow: embed again.
                return embeddings.embed(model, SearchRule.embeddingText(memory.title(), memory.description(),
                        memory.content())).map(vector -> Map.of(model, vector));
            }
            return Uni.createFrom().item(byModel);
        }).map(byModel -> {
            String primary = byModel.containsKey(generations.searchModel()) ? generations.searchModel()
                    : byModel.keySet().iterator().next();
            List<Embedding> others = new ArrayList<>();
            byModel.forEach((model, vector) -> {
                if (!model.equals(primary)) {
                    others.add(MemoryEvents.embedding(model, vector));
                }
            });
            MemoryRecorded state = MemoryRecorded.newBuilder()
                    .setOrigin(MemoryOrigin.valueOf(memory.origin().toUpperCase(Locale.ROOT)))
                    .setTitle(memory.title()).setDescription(memory.description()).setContent(memory.content())
                    .setOutcome(MemoryOutcome.valueOf(memory.outcome().toUpperCase(Locale.ROOT)))
                    .setTags(memory.tags())
                    .setSourceSessionIds(memory.sources().stream().filter(s -> !ids.contains(s)).toList())
                    .setEmbedding(MemoryEvents.embedding(primary, byModel.get(primary)))
                    .setVia(memory.via() == null ? MemoryEvents.UNKNOWN_VIA : memory.via()).build();
            return event(erasure, memory, "restated", MemoryRestated.newBuilder().setMemory(state)
                    .setEmbeddings(others).setRecordedAt(memory.recordedAt()).setTextSources(text)
                    .setSignals(signals).build());
        });
    }

    /** Ids derived from the erasure and the memory: applying the erasure again publishes the same events. */
    private MemoryEvent event(ErasureLog.Erasure erasure, Affected memory, String what, Object payload) {
        UUID eventId = MemoryEvents.derivedId(erasure.tenant().value(), erasure.id(), memory.id().toString(), what);
        return MemoryEvents.event(MemoryEvents.header(eventId, erasure.tenant(), MemoryEvents.SERVICE_PRINCIPAL, null,
                clock), memory.project(), memory.id(), payload);
    }

    private static MemorySignalTotals totals(Totals totals) {
        return MemorySignalTotals.newBuilder().setExplicitPositive(totals.explicitPositive())
                .setExplicitNegative(totals.explicitNegative()).setUsage(totals.usage())
                .setOutcomePositive(totals.outcomePositive()).setOutcomeNegative(totals.outcomeNegative()).build();
    }

    private static Map<UUID, Map<String, Totals>> bySession(Iterable<Row> rows) {
        Map<UUID, Map<String, Totals>> signals = new HashMap<>();
        for (Row row : rows) {
            signals.computeIfAbsent(row.getUUID(0), id -> new HashMap<>()).put(row.getString(1), new Totals(
                    row.getLong(2), row.getLong(3), row.getLong(4), row.getLong(5), row.getLong(6)));
        }
        return signals;
    }

    /** {@code work} (it reads the key topic) on a worker thread, never on the event loop. */
    private static <T> Uni<T> blocking(java.util.function.Supplier<T> work) {
        return Uni.createFrom().item(work).runSubscriptionOn(Infrastructure.getDefaultWorkerPool());
    }
}
