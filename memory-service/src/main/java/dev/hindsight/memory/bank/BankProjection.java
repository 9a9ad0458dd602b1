package dev.hindsight.memory.bank;

import dev.hindsight.events.memory.Embedding;
import dev.hindsight.events.memory.MemoryDeleted;
import dev.hindsight.events.memory.MemoryEmbedded;
import dev.hindsight.events.memory.MemoryEvent;
import dev.hindsight.events.memory.MemoryMerged;
import dev.hindsight.events.memory.MemoryRecorded;
import dev.hindsight.events.memory.MemoryRestated;
import dev.hindsight.events.memory.MemorySignalRecorded;
import dev.hindsight.events.memory.MemoryTextPart;
import dev.hindsight.events.memory.ProjectPurged;
import dev.hindsight.events.memory.WeightVotes;
import dev.hindsight.memory.store.VectorStore;
import dev.hindsight.memorymodel.events.EmbeddingVectors;
import dev.hindsight.memorymodel.events.SignalColumns;
import dev.hindsight.memorymodel.events.WeightLearning;
import dev.hindsight.memorymodel.search.VectorGenerations;
import dev.hindsight.platform.consumer.DeadLetters;
import dev.hindsight.platform.consumer.Ledger;
import dev.hindsight.platform.consumer.Projection;
import dev.hindsight.platform.consumer.TransactionalBatches.Consumed;
import dev.hindsight.platform.erasure.ErasureLog;
import dev.hindsight.platform.kafka.Decoded;
import dev.hindsight.platform.tenant.TenantId;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Singleton;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * memory-service's database as a projection of hindsight.memory.v1. The same code applies an event twice: right
 * after a request published it (so the caller reads its own write) and when the consumer reads it from the topic (for
 * every other replica, and for a rebuild); the ledger makes the second application a no-op. Every write is also
 * idempotent on its own (a memory's row is inserted once; a signal's row is keyed by its event id), and the order of
 * different memories' events does not matter: a purge removes memories recorded before it whenever they arrive.
 * The vector store is written within the same transaction (see {@link VectorStore#put}); search ignores vectors
 * without a memory, so a store that cannot join the transaction is still correct: it is written before the rows that
 * make a vector visible, and cleared after they are gone.
 *
 * <p>Erasure (ADR 0028): the row keeps which sessions each part of the current text came from, a deleted memory
 * leaves the sessions it came from ({@code deleted_memory}), nothing an erased session gave is applied, and a
 * {@link MemoryRestated} replaces a memory's whole state, as a memory that survived an erasure was written again
 * under a new key.
 */
@Singleton
class BankProjection extends Projection<MemoryEvent> {

    static final String CONSUMER = "memory.projection";

    /** Its text came from the sessions it was recorded from: each part is attributed to all of them. */
    private static final String INSERT_MEMORY = """
            INSERT INTO memory (id, tenant_id, project_id, origin, title, description, content, outcome, tags,
                                source_session_ids, via, title_session_ids, description_session_ids,
                                content_session_ids, recorded_at, created_at, updated_at)
            SELECT $1, $2::text, $3::text, $4, $5, $6, $7, $8, $9, $10::text[], $12, $10, $10, $10, $11::timestamptz,
                   $11, $11
            WHERE NOT EXISTS (SELECT 1 FROM project_purge p
                              WHERE p.tenant_id = $2 AND p.project_id = $3 AND p.purged_before >= $11)
            ON CONFLICT (id) DO NOTHING""";
    /**
     * A part the merge replaced now came from the merging sessions ($8); a part it kept keeps where it came from. The
     * right-hand sides read the row as it was before this update.
     */
    private static final String MERGE = """
            UPDATE memory SET
                description_session_ids = CASE WHEN coalesce(description, '') IS DISTINCT FROM coalesce($3, '')
                                               THEN $8::text[] ELSE description_session_ids END,
                content_session_ids = CASE WHEN content IS DISTINCT FROM $4 THEN $8::text[]
                                           ELSE content_session_ids END,
                description = $3, content = $4, tags = $5, source_session_ids = $6, updated_at = $7
            WHERE tenant_id = $1 AND id = $2""";
    /**
     * A memory's whole state, replacing what the row says (or inserted, on a rebuild that reads none of its earlier
     * events); not past a purge later than its first recording, nor over another tenant's row.
     */
    private static final String RESTATE = """
            INSERT INTO memory AS m (id, tenant_id, project_id, origin, title, description, content, outcome, tags,
                                     source_session_ids, via, title_session_ids, description_session_ids,
                                     content_session_ids, explicit_positive, explicit_negative, usage_count,
                                     outcome_positive, outcome_negative, recorded_at, created_at, updated_at)
            SELECT $1, $2::text, $3::text, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19,
                   $20::timestamptz, $20, $21
            WHERE NOT EXISTS (SELECT 1 FROM project_purge p
                              WHERE p.tenant_id = $2 AND p.project_id = $3 AND p.purged_before >= $20)
            ON CONFLICT (id) DO UPDATE SET
                origin = EXCLUDED.origin, title = EXCLUDED.title, description = EXCLUDED.description,
                content = EXCLUDED.content, outcome = EXCLUDED.outcome, tags = EXCLUDED.tags,
                source_session_ids = EXCLUDED.source_session_ids, via = coalesce(EXCLUDED.via, m.via),
                title_session_ids = EXCLUDED.title_session_ids,
                description_session_ids = EXCLUDED.description_session_ids,
                content_session_ids = EXCLUDED.content_session_ids,
                explicit_positive = EXCLUDED.explicit_positive, explicit_negative = EXCLUDED.explicit_negative,
                usage_count = EXCLUDED.usage_count, outcome_positive = EXCLUDED.outcome_positive,
                outcome_negative = EXCLUDED.outcome_negative, updated_at = greatest(m.updated_at, EXCLUDED.updated_at)
            WHERE m.tenant_id = EXCLUDED.tenant_id
            RETURNING id""";
    /**
     * Its signals become one aggregate per session, as the event gives them: the rows of its earlier signals are
     * gone (a rebuild reads none of them), so the live database holds what a rebuild would.
     */
    private static final String RESTATE_DROP_SIGNALS = """
            WITH mine AS (SELECT id FROM memory WHERE tenant_id = $1 AND id = $2),
            individual AS (DELETE FROM memory_signal s USING mine WHERE s.memory_id = mine.id)
            DELETE FROM memory_signal_aggregate a USING mine WHERE a.memory_id = mine.id""";
    /** A statement of its own: the inserts of one statement do not see what its other parts deleted. */
    private static final String RESTATE_SIGNALS = """
            INSERT INTO memory_signal_aggregate (memory_id, session_id, explicit_positive, explicit_negative,
                                                 usage_count, outcome_positive, outcome_negative, rolled_up_until)
            SELECT m.id, t.session_id, t.ep, t.en, t.u, t.op, t.onn, $3
            FROM memory m, unnest($4::text[], $5::bigint[], $6::bigint[], $7::bigint[], $8::bigint[], $9::bigint[])
                AS t(session_id, ep, en, u, op, onn)
            WHERE m.tenant_id = $1 AND m.id = $2""";
    /** The sessions that retrieved it, so that their outcomes still count for it. */
    private static final String RESTATE_USES = """
            INSERT INTO session_memory_use (tenant_id, session_id, memory_id, first_used)
            SELECT $1, s, $2, $3 FROM unnest($4::text[]) AS s
            ON CONFLICT DO NOTHING""";
    /**
     * A deleted memory leaves the sessions its events came from, so that erasing one of those sessions later still
     * destroys the deleted memory's keys: its events hold that session's text on the log.
     */
    private static final String DELETE = """
            WITH gone AS (
                DELETE FROM memory WHERE tenant_id = $1 AND id = $2
                RETURNING tenant_id, id, source_session_ids || title_session_ids || description_session_ids
                                         || content_session_ids AS sessions)
            INSERT INTO deleted_memory (tenant_id, memory_id, session_ids, deleted_at)
            SELECT tenant_id, id, sessions, $3 FROM gone WHERE cardinality(sessions) > 0
            ON CONFLICT DO NOTHING""";
    private static final String INSERT_SIGNAL = """
            INSERT INTO memory_signal (event_id, memory_id, kind, positive, session_id, source, recorded_at)
            SELECT $1, $2, $4, $5, $6, $7, $8 FROM memory WHERE id = $2 AND tenant_id = $3
            ON CONFLICT (event_id) DO NOTHING
            RETURNING memory_id""";
    private static final String COUNT_SIGNAL = """
            UPDATE memory SET
                explicit_positive = explicit_positive + $3, explicit_negative = explicit_negative + $4,
                usage_count = usage_count + $5, outcome_positive = outcome_positive + $6,
                outcome_negative = outcome_negative + $7, updated_at = greatest(updated_at, $8)
            WHERE tenant_id = $1 AND id = $2""";
    private static final String SIGNALS = """
            WITH s AS (
                SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::boolean[], $6::text[],
                                     $7::text[], $8::timestamptz[])
                    AS s(event_id, memory_id, tenant_id, kind, positive, session_id, source, recorded_at)),
            inserted AS (
                INSERT INTO memory_signal (event_id, memory_id, kind, positive, session_id, source, recorded_at)
                SELECT s.event_id, s.memory_id, s.kind, s.positive, s.session_id, s.source, s.recorded_at
                FROM s JOIN memory m ON m.id = s.memory_id AND m.tenant_id = s.tenant_id
                ON CONFLICT (event_id) DO NOTHING
                RETURNING memory_id, kind, positive, session_id, recorded_at),
            counted AS (
                UPDATE memory m SET
                    explicit_positive = m.explicit_positive + c.ep, explicit_negative = m.explicit_negative + c.en,
                    usage_count = m.usage_count + c.u, outcome_positive = m.outcome_positive + c.op,
                    outcome_negative = m.outcome_negative + c.onn, updated_at = greatest(m.updated_at, c.at)
                FROM (SELECT memory_id,
                             count(*) FILTER (WHERE kind = 'explicit' AND positive) AS ep,
                             count(*) FILTER (WHERE kind = 'explicit' AND NOT positive) AS en,
                             count(*) FILTER (WHERE kind = 'usage') AS u,
                             count(*) FILTER (WHERE kind = 'outcome' AND positive) AS op,
                             count(*) FILTER (WHERE kind = 'outcome' AND NOT positive) AS onn,
                             max(recorded_at) AS at
                      FROM inserted GROUP BY memory_id) c
                WHERE m.id = c.memory_id
                RETURNING m.id),
            used AS (
                INSERT INTO session_memory_use (tenant_id, session_id, memory_id, first_used)
                SELECT s.tenant_id, i.session_id, i.memory_id, min(i.recorded_at)
                FROM inserted i JOIN s ON s.memory_id = i.memory_id AND s.session_id = i.session_id
                WHERE i.kind = 'usage' AND i.session_id IS NOT NULL
                GROUP BY s.tenant_id, i.session_id, i.memory_id
                ON CONFLICT DO NOTHING
                RETURNING memory_id)
            SELECT (SELECT count(*) FROM counted), (SELECT count(*) FROM used)""";
    private static final String USE = """
            INSERT INTO session_memory_use (tenant_id, session_id, memory_id, first_used) VALUES ($1, $2, $3, $4)
            ON CONFLICT DO NOTHING""";
    private static final String LEARN = """
            INSERT INTO project_weights AS w (tenant_id, project_id, explicit_alpha, explicit_beta, usage_alpha,
                                              usage_beta, outcome_alpha, outcome_beta, updated_at)
            VALUES ($1, $2, $3::float8 + $9::float8, $4::float8 + $10::float8, $5::float8 + $11::float8,
                    $6::float8 + $12::float8, $7::float8 + $13::float8, $8::float8 + $14::float8, $15)
            ON CONFLICT (tenant_id, project_id) DO UPDATE SET
                explicit_alpha = w.explicit_alpha + $9, explicit_beta = w.explicit_beta + $10,
                usage_alpha = w.usage_alpha + $11, usage_beta = w.usage_beta + $12,
                outcome_alpha = w.outcome_alpha + $13, outcome_beta = w.outcome_beta + $14,
                updated_at = greatest(w.updated_at, $15)""";
    private static final String PURGE = """
            INSERT INTO project_purge AS p (tenant_id, project_id, purged_before) VALUES ($1, $2, $3)
            ON CONFLICT (tenant_id, project_id) DO UPDATE SET purged_before = greatest(p.purged_before, $3)""";
    private static final String PURGE_MEMORIES = """
            WITH gone AS (
                DELETE FROM memory WHERE tenant_id = $1 AND project_id = $2 AND recorded_at <= $3
                RETURNING tenant_id, id, source_session_ids || title_session_ids || description_session_ids
                                         || content_session_ids AS sessions),
            kept AS (
                INSERT INTO deleted_memory (tenant_id, memory_id, session_ids, deleted_at)
                SELECT tenant_id, id, sessions, $3 FROM gone WHERE cardinality(sessions) > 0
                ON CONFLICT DO NOTHING)
            SELECT id FROM gone""";

    private final VectorStore vectors;
    private final ErasureLog erasures;

    public BankProjection(Pool pool, DeadLetters deadLetters, ErasureLog erasures, VectorStore vectors) {
        super(pool, deadLetters, erasures, "memories", MemoryEvent.class);
        this.vectors = vectors;
        this.erasures = erasures;
    }

    /** The changes other replicas made, and (on an empty database) the whole history, as read from the topic. */
    @Incoming("memories")
    public Uni<Void> consume(ConsumerRecords<String, Decoded> records) {
        return process(records);
    }

    @Override
    public Uni<Void> apply(SqlClient tx, List<Consumed<MemoryEvent>> events) {
        return write(tx, events.stream().map(Consumed::envelope).toList());
    }

    /**
     * Applies the events not applied before, in order, within {@code tx}. Consecutive plain signals (usage from a
     * search, outcomes, feedback without weight votes) are applied together in one statement: a search that returns
     * ten memories costs one statement, not twenty.
     */
    public Uni<Void> write(SqlClient tx, List<MemoryEvent> events) {
        return claim(tx, events).flatMap(fresh -> applyClaimed(tx, fresh));
    }

    /**
     * Records {@code events} in the ledger within {@code tx}, before they are applied: answers those not recorded
     * before. Claimed ahead of publishing (an erasure's events), they make the consumer that reads them back wait
     * for {@code tx} and then skip them, instead of locking the rows {@code tx} holds.
     */
    Uni<List<MemoryEvent>> claim(SqlClient tx, List<MemoryEvent> events) {
        return Ledger.claim(tx, "processed_event", CONSUMER, events, MemoryEvent::getHeader);
    }

    /** Applies events {@link #claim} answered, in order, within {@code tx}. */
    Uni<Void> applyClaimed(SqlClient tx, List<MemoryEvent> fresh) {
        List<List<MemoryEvent>> steps = new ArrayList<>();
        List<MemoryEvent> signals = new ArrayList<>();
        for (MemoryEvent claimed : fresh) {
            MemoryEvent event = withoutErased(claimed);
            if (event == null) {
                continue;
            }
            if (event.getPayload() instanceof MemorySignalRecorded signal && signal.getWeightVotes() == null) {
                signals.add(event);
                continue;
            }
            if (!signals.isEmpty()) {
                steps.add(signals);
                signals = new ArrayList<>();
            }
            steps.add(List.of(event));
        }
        if (!signals.isEmpty()) {
            steps.add(signals);
        }
        return Multi.createFrom().iterable(steps).onItem().transformToUniAndConcatenate(step ->
                        step.size() == 1 && !(step.get(0).getPayload() instanceof MemorySignalRecorded plain
                                && plain.getWeightVotes() == null)
                                ? applyOne(tx, step.get(0)) : signals(tx, step))
                .collect().last().replaceWithVoid();
    }

    /**
     * {@code event} without what erased sessions gave it (ADR 0028), or null when nothing of it may be applied: a
     * signal an erased session gave, a memory recorded from an erased session (its text came from it), a merge of an
     * erased session's draft. The memory's record key is not erased, so the consumer skeleton lets these through: they
     * were published before the erasure reached this service, or by a job that raced it, and neither the live
     * database nor a rebuild may count them.
     */
    private MemoryEvent withoutErased(MemoryEvent event) {
        TenantId tenant = TenantId.of(event.getHeader().getTenantId());
        Object payload = event.getPayload();
        if (payload instanceof MemorySignalRecorded signal) {
            return signal.getSessionId() != null && erasures.erased(tenant, signal.getSessionId()) ? null : event;
        }
        if (payload instanceof MemoryRecorded recorded) {
            return erasures.erasedAmong(tenant, recorded.getSourceSessionIds()).isEmpty() ? event : null;
        }
        if (payload instanceof MemoryMerged merged) {
            if (merged.getMergedSessionId() != null && erasures.erased(tenant, merged.getMergedSessionId())) {
                return null;
            }
            List<String> erased = erasures.erasedAmong(tenant, merged.getSourceSessionIds());
            if (erased.isEmpty()) {
                return event;
            }
            MemoryMerged kept = MemoryMerged.newBuilder(merged).setSourceSessionIds(merged.getSourceSessionIds()
                    .stream().filter(session -> !erased.contains(session)).toList()).build();
            return MemoryEvent.newBuilder(event).setPayload(kept).build();
        }
        return event;
    }

    /** Plain signals in one statement: their rows, the memories' totals, and which sessions used which memories. */
    private static Uni<Void> signals(SqlClient tx, List<MemoryEvent> events) {
        SignalColumns c = SignalColumns.of(events);
        return tx.preparedQuery(SIGNALS).execute(Tuple.tuple(Arrays.asList(c.eventIds(), c.memoryIds(), c.tenants(),
                c.kinds(), c.positives(), c.sessionIds(), c.sources(), c.times()))).replaceWithVoid();
    }

    private Uni<Void> applyOne(SqlClient tx, MemoryEvent event) {
        TenantId tenant = TenantId.of(event.getHeader().getTenantId());
        String project = event.getProjectId();
        OffsetDateTime at = time(event.getHeader().getRecordedAt());
        UUID memory = event.getMemoryId() == null ? null : UUID.fromString(event.getMemoryId());
        Object payload = event.getPayload();
        if (payload instanceof MemoryRecorded recorded) {
            // Both statements go out at once on the transaction's connection (the client pipelines them).
            Uni<Void> vector = Stages.timed("apply", "vector", () -> vectors.put(tx, new VectorStore.Entry(tenant,
                    project, memory, recorded.getEmbedding().getModelId(), EmbeddingVectors.of(recorded.getEmbedding()))));
            Uni<Void> row = tx.preparedQuery(INSERT_MEMORY).execute(Tuple.tuple(Arrays.asList(memory, tenant.value(),
                    project, recorded.getOrigin().name().toLowerCase(Locale.ROOT), recorded.getTitle(),
                    (recorded.getDescription()), recorded.getContent(),
                    recorded.getOutcome().name().toLowerCase(Locale.ROOT),
                    recorded.getTags().toArray(String[]::new),
                    recorded.getSourceSessionIds().toArray(String[]::new), at, recorded.getVia()))).replaceWithVoid();
            return Uni.combine().all().unis(vector, row).discardItems();
        }
        if (payload instanceof MemoryRestated restated) {
            return restate(tx, restated, tenant, project, memory, at);
        }
        if (payload instanceof MemoryMerged merged) {
            // New content, new vector: the memory's vectors of other models described the old text.
            Uni<Void> vector = merged.getEmbedding() == null ? Uni.createFrom().voidItem()
                    : vectors.put(tx, new VectorStore.Entry(tenant, project, memory, merged.getEmbedding().getModelId(),
                                    EmbeddingVectors.of(merged.getEmbedding())))
                            .flatMap(v -> vectors.retainOnly(tx, tenant, memory, merged.getEmbedding().getModelId()));
            // The parts it replaced came from the merged session (from all its sources, for a merge naming none).
            List<String> from = merged.getMergedSessionId() != null ? List.of(merged.getMergedSessionId())
                    : merged.getSourceSessionIds();
            return vector.flatMap(v -> tx.preparedQuery(MERGE).execute(Tuple.tuple(Arrays.asList(tenant.value(), memory,
                    (merged.getDescription()), merged.getContent(), merged.getTags().toArray(String[]::new),
                    merged.getSourceSessionIds().toArray(String[]::new), at, from.toArray(String[]::new)))))
                    .replaceWithVoid();
        }
        if (payload instanceof MemoryEmbedded embedded) {
            // Kept only while the memory still says what was embedded (a merge in between made the vector stale).
            return tx.preparedQuery("SELECT " + VectorGenerations.TEXT_VERSION_SQL
                            + " FROM memory WHERE tenant_id = $1 AND id = $2").execute(Tuple.of(tenant.value(), memory))
                    .flatMap(rows -> rows.size() == 1 && embedded.getTextMd5().equals(rows.iterator().next().getString(0))
                            ? vectors.put(tx, new VectorStore.Entry(tenant, project, memory,
                                    embedded.getEmbedding().getModelId(), EmbeddingVectors.of(embedded.getEmbedding())))
                            : Uni.createFrom().voidItem());
        }
        if (payload instanceof MemoryDeleted) {
            return tx.preparedQuery(DELETE).execute(Tuple.of(tenant.value(), memory, at))
                    .flatMap(done -> vectors.remove(tx, tenant, memory));
        }
        if (payload instanceof MemorySignalRecorded signal) {
            return signal(tx, event, signal, tenant, project, memory, at);
        }
        if (payload instanceof ProjectPurged) {
            return tx.preparedQuery(PURGE).execute(Tuple.of(tenant.value(), project, at))
                    .flatMap(done -> tx.preparedQuery(PURGE_MEMORIES).execute(Tuple.of(tenant.value(), project, at)))
                    .flatMap(deleted -> {
                        List<UUID> ids = new ArrayList<>(deleted.size());
                        for (Row row : deleted) {
                            ids.add(row.getUUID(0));
                        }
                        return vectors.removeAll(tx, tenant, ids);
                    });
        }
        throw new IllegalArgumentException("Unknown memory event payload " + payload.getClass().getName());
    }

    /**
     * The memory as a {@link MemoryRestated} says it stands: its row (totals included), its vectors of every model and
     * its signals, one aggregate per session, replace what was there. Signals of a session erased since it was written
     * are left out.
     */
    private Uni<Void> restate(SqlClient tx, MemoryRestated restated, TenantId tenant, String project, UUID memory,
            OffsetDateTime at) {
        MemoryRecorded state = restated.getMemory();
        List<String> sessions = new ArrayList<>();
        List<Long> ep = new ArrayList<>();
        List<Long> en = new ArrayList<>();
        List<Long> usage = new ArrayList<>();
        List<Long> op = new ArrayList<>();
        List<Long> on = new ArrayList<>();
        List<String> users = new ArrayList<>();
        restated.getSignals().forEach((session, totals) -> {
            if (!session.isEmpty() && erasures.erased(tenant, session)) {
                return;
            }
            sessions.add(session);
            ep.add(totals.getExplicitPositive());
            en.add(totals.getExplicitNegative());
            usage.add(totals.getUsage());
            op.add(totals.getOutcomePositive());
            on.add(totals.getOutcomeNegative());
            if (!session.isEmpty() && totals.getUsage() > 0) {
                users.add(session);
            }
        });
        Map<MemoryTextPart, List<String>> parts = new EnumMap<>(MemoryTextPart.class);
        for (MemoryTextPart part : MemoryTextPart.values()) {
            parts.put(part, new ArrayList<>());
        }
        restated.getTextSources().forEach((session, of) -> of.forEach(part -> parts.get(part).add(session)));
        Tuple row = Tuple.tuple(Arrays.asList(memory, tenant.value(), project,
                state.getOrigin().name().toLowerCase(Locale.ROOT), state.getTitle(), state.getDescription(),
                state.getContent(), state.getOutcome().name().toLowerCase(Locale.ROOT),
                state.getTags().toArray(String[]::new), state.getSourceSessionIds().toArray(String[]::new),
                MemoryEvents.UNKNOWN_VIA.equals(state.getVia()) ? null : state.getVia(),
                parts.get(MemoryTextPart.TITLE).toArray(String[]::new),
                parts.get(MemoryTextPart.DESCRIPTION).toArray(String[]::new),
                parts.get(MemoryTextPart.CONTENT).toArray(String[]::new), sum(ep), sum(en), sum(usage), sum(op),
                sum(on), time(restated.getRecordedAt()), at));
        return tx.preparedQuery(RESTATE).execute(row).flatMap(written -> {
            if (written.size() == 0) {
                return Uni.createFrom().voidItem();   // purged since it was first recorded, or another tenant's id
            }
            List<Embedding> embeddings = new ArrayList<>();
            embeddings.add(state.getEmbedding());
            embeddings.addAll(restated.getEmbeddings());
            Uni<Void> chain = vectors.remove(tx, tenant, memory);
            for (Embedding embedding : embeddings) {
                chain = chain.flatMap(v -> vectors.put(tx, new VectorStore.Entry(tenant, project, memory,
                        embedding.getModelId(), EmbeddingVectors.of(embedding))));
            }
            return chain
                    .flatMap(v -> tx.preparedQuery(RESTATE_DROP_SIGNALS).execute(Tuple.of(tenant.value(), memory)))
                    .flatMap(v -> tx.preparedQuery(RESTATE_SIGNALS).execute(Tuple.tuple(Arrays.asList(tenant.value(),
                            memory, at, sessions.toArray(String[]::new), ep.toArray(Long[]::new),
                            en.toArray(Long[]::new), usage.toArray(Long[]::new), op.toArray(Long[]::new),
                            on.toArray(Long[]::new)))))
                    .flatMap(v -> users.isEmpty() ? Uni.createFrom().voidItem()
                            : tx.preparedQuery(RESTATE_USES).execute(Tuple.tuple(Arrays.asList(tenant.value(), memory,
                                    at, users.toArray(String[]::new)))).replaceWithVoid());
        });
    }

    private static long sum(List<Long> counts) {
        return counts.stream().mapToLong(Long::longValue).sum();
    }

    private Uni<Void> signal(SqlClient tx, MemoryEvent event, MemorySignalRecorded signal, TenantId tenant,
            String project, UUID memory, OffsetDateTime at) {
        String kind = signal.getKind().name().toLowerCase(Locale.ROOT);
        boolean positive = signal.getPositive();
        return tx.preparedQuery(INSERT_SIGNAL).execute(Tuple.tuple(Arrays.asList(event.getHeader().getEventId(), memory,
                        tenant.value(), kind, positive, (signal.getSessionId()), signal.getSource(), at)))
                .flatMap(inserted -> {
                    if (inserted.size() == 0) {
                        return Uni.createFrom().voidItem();   // the memory is gone (deleted or purged)
                    }
                    long one = 1;
                    Tuple counts = Tuple.tuple(Arrays.asList(tenant.value(), memory,
                            kind.equals("explicit") && positive ? one : 0L, kind.equals("explicit") && !positive ? one : 0L,
                            kind.equals("usage") ? one : 0L,
                            kind.equals("outcome") && positive ? one : 0L, kind.equals("outcome") && !positive ? one : 0L,
                            at));
                    Uni<Void> counted = tx.preparedQuery(COUNT_SIGNAL).execute(counts).replaceWithVoid();
                    if (kind.equals("usage") && signal.getSessionId() != null) {
                        counted = counted.flatMap(v -> tx.preparedQuery(USE)
                                .execute(Tuple.of(tenant.value(), signal.getSessionId(), memory, at))
                                .replaceWithVoid());
                    }
                    if (signal.getWeightVotes() != null) {
                        counted = counted.flatMap(v -> learn(tx, tenant, project, signal.getWeightVotes(), at));
                    }
                    return counted;
                });
    }

    private static Uni<Void> learn(SqlClient tx, TenantId tenant, String project, WeightVotes votes,
            OffsetDateTime at) {
        List<Object> args = new ArrayList<>(List.of(tenant.value(), project));
        args.addAll(WeightLearning.priors());
        args.addAll(WeightLearning.increments(votes));
        args.add(at);
        return tx.preparedQuery(LEARN).execute(Tuple.tuple(args)).replaceWithVoid();
    }

    private static OffsetDateTime time(Instant instant) {
        return OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
    }
}
