package dev.hindsight.memory.bank;

import dev.hindsight.events.memory.MemoryDeleted;
import dev.hindsight.events.memory.MemoryEmbedded;
import dev.hindsight.events.memory.MemoryEvent;
import dev.hindsight.events.memory.MemoryMerged;
import dev.hindsight.events.memory.MemoryRecorded;
import dev.hindsight.events.memory.MemorySignalRecorded;
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
import java.util.List;
import java.util.Locale;
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
 */
@Singleton
class BankProjection extends Projection<MemoryEvent> {

    static final String CONSUMER = "memory.projection";

    private static final String INSERT_MEMORY = """
            INSERT INTO memory (id, tenant_id, project_id, origin, title, description, content, outcome, tags,
                                source_session_ids, recorded_at, created_at, updated_at)
            SELECT $1, $2::text, $3::text, $4, $5, $6, $7, $8, $9, $10, $11::timestamptz, $11, $11
            WHERE NOT EXISTS (SELECT 1 FROM project_purge p
                              WHERE p.tenant_id = $2 AND p.project_id = $3 AND p.purged_before >= $11)
            ON CONFLICT (id) DO NOTHING""";
    private static final String MERGE = """
            UPDATE memory SET description = $3, content = $4, tags = $5, source_session_ids = $6, updated_at = $7
            WHERE tenant_id = $1 AND id = $2""";
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
            DELETE FROM memory WHERE tenant_id = $1 AND project_id = $2 AND recorded_at <= $3 RETURNING id""";

    private final VectorStore vectors;

    public BankProjection(Pool pool, DeadLetters deadLetters, VectorStore vectors) {
        super(pool, deadLetters, "memories", MemoryEvent.class);
        this.vectors = vectors;
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
        return Ledger.claim(tx, "processed_event", CONSUMER, events, MemoryEvent::getHeader).flatMap(fresh -> {
            List<List<MemoryEvent>> steps = new ArrayList<>();
            List<MemoryEvent> signals = new ArrayList<>();
            for (MemoryEvent event : fresh) {
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
        });
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
                    recorded.getSourceSessionIds().toArray(String[]::new), at))).replaceWithVoid();
            return Uni.combine().all().unis(vector, row).discardItems();
        }
        if (payload instanceof MemoryMerged merged) {
            // New content, new vector: the memory's vectors of other models described the old text.
            Uni<Void> vector = merged.getEmbedding() == null ? Uni.createFrom().voidItem()
                    : vectors.put(tx, new VectorStore.Entry(tenant, project, memory, merged.getEmbedding().getModelId(),
                                    EmbeddingVectors.of(merged.getEmbedding())))
                            .flatMap(v -> vectors.retainOnly(tx, tenant, memory, merged.getEmbedding().getModelId()));
            return vector.flatMap(v -> tx.preparedQuery(MERGE).execute(Tuple.tuple(Arrays.asList(tenant.value(), memory,
                    (merged.getDescription()), merged.getContent(), merged.getTags().toArray(String[]::new),
                    merged.getSourceSessionIds().toArray(String[]::new), at)))).replaceWithVoid();
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
            return tx.preparedQuery("DELETE FROM memory WHERE tenant_id = $1 AND id = $2")
                    .execute(Tuple.of(tenant.value(), memory))
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
