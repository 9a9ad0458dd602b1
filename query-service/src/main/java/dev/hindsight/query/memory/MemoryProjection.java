package dev.hindsight.query.memory;

import dev.hindsight.events.memory.MemoryDeleted;
import dev.hindsight.events.memory.MemoryEmbedded;
import dev.hindsight.events.memory.MemoryEvent;
import dev.hindsight.events.memory.MemoryMerged;
import dev.hindsight.events.memory.MemoryRecorded;
import dev.hindsight.events.memory.MemoryRestated;
import dev.hindsight.events.memory.MemorySignalRecorded;
import dev.hindsight.events.memory.ProjectPurged;
import dev.hindsight.events.memory.WeightVotes;
import dev.hindsight.memorymodel.events.EmbeddingVectors;
import dev.hindsight.memorymodel.events.SignalColumns;
import dev.hindsight.memorymodel.events.WeightLearning;
import dev.hindsight.memorymodel.search.SearchRule;
import dev.hindsight.memorymodel.search.VectorGenerations;
import dev.hindsight.platform.kafka.Decoded;
import dev.hindsight.platform.tenant.TenantId;
import dev.hindsight.query.readmodel.Json;
import dev.hindsight.query.readmodel.ReadModel;
import dev.hindsight.query.readmodel.ReadModelProjection;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Singleton;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * The ReasoningBank in the read models ({@code hindsight.memory.v1}, written by memory-service alone), for the
 * console's memory pages: memories with their embeddings, one per model (searched as memory-service searches them,
 * {@link dev.hindsight.query.memory.MemoryVectors}), signal totals,
 * each signal for the history, merges, and the projects' learned weights.
 *
 * <p>A batch is applied in runs of consecutive events of one kind, each run one statement (or one pipelined batch):
 * a memory's events share a partition, so its record comes before its merges, signals and deletion, in an earlier
 * run. A signal counts only when its row is inserted (keyed by event id), so a redelivered one changes nothing, and a
 * purge removes the memories recorded before it whenever they arrive.
 */
@Singleton
class MemoryProjection extends ReadModelProjection<MemoryEvent> {

    private static final String RECORD = """
            WITH recorded AS (
                INSERT INTO {rm}.memory (tenant_id, memory_id, project_id, origin, title, description, content, outcome,
                                         tags, source_session_ids, via, recorded_at, updated_at)
                SELECT $1, $2, $3::text, $4, $5, $6, $7, $8, $9, $10, $11, $14::timestamptz, $14
                WHERE NOT EXISTS (SELECT 1 FROM {rm}.memory_project_purge p
                                  WHERE p.tenant_id = $1 AND p.project_id = $3 AND p.purged_before >= $14)
                ON CONFLICT (tenant_id, memory_id) DO NOTHING
                RETURNING tenant_id, memory_id, project_id)
            INSERT INTO {rm}.memory_vector (tenant_id, memory_id, project_id, model_id, embedding)
            SELECT tenant_id, memory_id, project_id, $12, $13::vector FROM recorded
            ON CONFLICT DO NOTHING""";
    /** A merge with a new embedding replaces the memory's vectors: the other models' described the old text. */
    private static final String MERGE = """
            WITH merged AS (
                UPDATE {rm}.memory SET description = $4, content = $5, tags = $6, source_session_ids = $7,
                    updated_at = greatest(updated_at, $10)
                WHERE tenant_id = $1 AND memory_id = $2
                RETURNING memory_id, project_id),
            vector AS (
                INSERT INTO {rm}.memory_vector (tenant_id, memory_id, project_id, model_id, embedding)
                SELECT $1, memory_id, project_id, $8, $9::vector FROM merged WHERE $8::text IS NOT NULL
                ON CONFLICT (tenant_id, memory_id, model_id) DO UPDATE SET embedding = EXCLUDED.embedding),
            stale AS (
                DELETE FROM {rm}.memory_vector v USING merged
                WHERE $8::text IS NOT NULL AND v.tenant_id = $1 AND v.memory_id = merged.memory_id
                  AND v.model_id <> $8)
            INSERT INTO {rm}.memory_merge (tenant_id, event_id, memory_id, merged_session_id, similarity, merged_at)
            SELECT $1, $3, memory_id, $11, $12, $10 FROM merged
            ON CONFLICT (tenant_id, event_id) DO NOTHING""";
    /** Another model's vector of the memory, kept only while the memory still says what was embedded. */
    private static final String EMBEDDED = """
            INSERT INTO {rm}.memory_vector (tenant_id, memory_id, project_id, model_id, embedding)
            SELECT tenant_id, memory_id, project_id, $3, $4::vector FROM {rm}.memory
            WHERE tenant_id = $1 AND memory_id = $2 AND %s = $5
            ON CONFLICT (tenant_id, memory_id, model_id) DO UPDATE SET embedding = EXCLUDED.embedding"""
            .formatted(VectorGenerations.TEXT_VERSION_SQL);
    private static final String SIGNALS = """
            WITH s AS (
                SELECT * FROM unnest($1::text[], $2::uuid[], $3::uuid[], $4::text[], $5::boolean[], $6::text[],
                                     $7::text[], $8::timestamptz[])
                    AS s(tenant_id, event_id, memory_id, kind, positive, session_id, source, occurred_at)),
            fresh AS (
                INSERT INTO {rm}.memory_signal (tenant_id, event_id, memory_id, kind, positive, session_id, source,
                                                occurred_at)
                SELECT s.* FROM s
                WHERE EXISTS (SELECT 1 FROM {rm}.memory m WHERE m.tenant_id = s.tenant_id AND m.memory_id = s.memory_id)
                ON CONFLICT (tenant_id, event_id) DO NOTHING
                RETURNING tenant_id, event_id, memory_id, kind, positive, occurred_at),
            totals AS (
                UPDATE {rm}.memory m SET
                    explicit_positive = m.explicit_positive + t.explicit_positive,
                    explicit_negative = m.explicit_negative + t.explicit_negative,
                    usage_count = m.usage_count + t.usage_count,
                    outcome_positive = m.outcome_positive + t.outcome_positive,
                    outcome_negative = m.outcome_negative + t.outcome_negative,
                    updated_at = greatest(m.updated_at, t.latest)
                FROM (SELECT tenant_id, memory_id,
                             count(*) FILTER (WHERE kind = 'explicit' AND positive) AS explicit_positive,
                             count(*) FILTER (WHERE kind = 'explicit' AND NOT positive) AS explicit_negative,
                             count(*) FILTER (WHERE kind = 'usage') AS usage_count,
                             count(*) FILTER (WHERE kind = 'outcome' AND positive) AS outcome_positive,
                             count(*) FILTER (WHERE kind = 'outcome' AND NOT positive) AS outcome_negative,
                             max(occurred_at) AS latest
                      FROM fresh GROUP BY tenant_id, memory_id) t
                WHERE m.tenant_id = t.tenant_id AND m.memory_id = t.memory_id)
            SELECT event_id FROM fresh""";
    private static final String LEARN = """
            INSERT INTO {rm}.memory_project_weights AS w (tenant_id, project_id, explicit_alpha, explicit_beta,
                                                          usage_alpha, usage_beta, outcome_alpha, outcome_beta)
            VALUES ($1, $2, $3::float8 + $9::float8, $4::float8 + $10::float8, $5::float8 + $11::float8,
                    $6::float8 + $12::float8, $7::float8 + $13::float8, $8::float8 + $14::float8)
            ON CONFLICT (tenant_id, project_id) DO UPDATE SET
                explicit_alpha = w.explicit_alpha + $9, explicit_beta = w.explicit_beta + $10,
                usage_alpha = w.usage_alpha + $11, usage_beta = w.usage_beta + $12,
                outcome_alpha = w.outcome_alpha + $13, outcome_beta = w.outcome_beta + $14""";
    private static final String DELETE = """
            WITH gone AS (DELETE FROM {rm}.memory WHERE tenant_id = $1 AND memory_id = $2 RETURNING memory_id),
            signals AS (DELETE FROM {rm}.memory_signal WHERE tenant_id = $1 AND memory_id IN (SELECT memory_id FROM gone)),
            merges AS (DELETE FROM {rm}.memory_merge WHERE tenant_id = $1 AND memory_id IN (SELECT memory_id FROM gone)),
            vectors AS (DELETE FROM {rm}.memory_vector WHERE tenant_id = $1 AND memory_id IN (SELECT memory_id FROM gone))
            SELECT count(*) FROM gone""";
    /**
     * A memory that survived an erasure, restated whole (ADR 0028): its text, sources, totals and vectors replace
     * what is held (or are inserted: a rebuild reads none of its earlier events, whose keys are destroyed); the
     * signals and merges of sessions that are no longer among its sources go.
     */
    private static final String RESTATE = """
            WITH restated AS (
                INSERT INTO {rm}.memory AS m (tenant_id, memory_id, project_id, origin, title, description, content,
                        outcome, tags, source_session_ids, via, explicit_positive, explicit_negative, usage_count,
                        outcome_positive, outcome_negative, recorded_at, updated_at)
                SELECT $1, $2, $3::text, $4, $5, $6, $7, $8, $9, $10::text[], $11, $12, $13, $14, $15, $16,
                       $17::timestamptz, $18
                WHERE NOT EXISTS (SELECT 1 FROM {rm}.memory_project_purge p
                                  WHERE p.tenant_id = $1 AND p.project_id = $3 AND p.purged_before >= $17)
                ON CONFLICT (tenant_id, memory_id) DO UPDATE SET title = EXCLUDED.title,
                    description = EXCLUDED.description, content = EXCLUDED.content, outcome = EXCLUDED.outcome,
                    tags = EXCLUDED.tags, source_session_ids = EXCLUDED.source_session_ids,
                    explicit_positive = EXCLUDED.explicit_positive, explicit_negative = EXCLUDED.explicit_negative,
                    usage_count = EXCLUDED.usage_count, outcome_positive = EXCLUDED.outcome_positive,
                    outcome_negative = EXCLUDED.outcome_negative, updated_at = greatest(m.updated_at, EXCLUDED.updated_at)
                RETURNING tenant_id, memory_id, project_id),
            vectors AS (
                INSERT INTO {rm}.memory_vector (tenant_id, memory_id, project_id, model_id, embedding)
                SELECT r.tenant_id, r.memory_id, r.project_id, v.model_id, v.embedding::vector
                FROM restated r, unnest($19::text[], $20::text[]) AS v(model_id, embedding)
                ON CONFLICT (tenant_id, memory_id, model_id) DO UPDATE SET embedding = EXCLUDED.embedding),
            stale AS (
                DELETE FROM {rm}.memory_vector v USING restated r
                WHERE v.tenant_id = $1 AND v.memory_id = r.memory_id AND NOT (v.model_id = ANY($19::text[]))),
            signals AS (
                DELETE FROM {rm}.memory_signal s USING restated r
                WHERE s.tenant_id = $1 AND s.memory_id = r.memory_id AND s.session_id IS NOT NULL
                  AND s.session_id <> '' AND NOT (s.session_id = ANY($21::text[])))
            DELETE FROM {rm}.memory_merge g USING restated r
            WHERE g.tenant_id = $1 AND g.memory_id = r.memory_id AND g.merged_session_id IS NOT NULL
              AND NOT (g.merged_session_id = ANY($10::text[]))""";
    private static final String PURGE = """
            WITH mark AS (
                INSERT INTO {rm}.memory_project_purge AS p (tenant_id, project_id, purged_before) VALUES ($1, $2, $3)
                ON CONFLICT (tenant_id, project_id) DO UPDATE SET purged_before = greatest(p.purged_before, $3)),
            gone AS (DELETE FROM {rm}.memory WHERE tenant_id = $1 AND project_id = $2 AND recorded_at <= $3
                     RETURNING memory_id),
            signals AS (DELETE FROM {rm}.memory_signal WHERE tenant_id = $1 AND memory_id IN (SELECT memory_id FROM gone)),
            merges AS (DELETE FROM {rm}.memory_merge WHERE tenant_id = $1 AND memory_id IN (SELECT memory_id FROM gone)),
            vectors AS (DELETE FROM {rm}.memory_vector WHERE tenant_id = $1 AND memory_id IN (SELECT memory_id FROM gone))
            SELECT count(*) FROM gone""";

    public MemoryProjection(Writes writes) {
        super(writes, "memories", "query.memories", MemoryEvent.class, MemoryEvent::getHeader);
    }

    @Incoming("memories")
    public Uni<Void> consume(ConsumerRecords<String, Decoded> records) {
        return live(records);
    }

    @Override
    protected Uni<Void> write(SqlClient tx, ReadModel model, List<Projected<MemoryEvent>> events) {
        Uni<Void> chain = Uni.createFrom().voidItem();
        int start = 0;
        while (start < events.size()) {
            Class<?> kind = events.get(start).envelope().getPayload().getClass();
            int end = start + 1;
            while (end < events.size() && events.get(end).envelope().getPayload().getClass() == kind) {
                end++;
            }
            List<MemoryEvent> run = events.subList(start, end).stream().map(Projected::envelope).toList();
            chain = chain.chain(() -> applyRun(tx, model, run));
            start = end;
        }
        return chain;
    }

    private static Uni<Void> applyRun(SqlClient tx, ReadModel model, List<MemoryEvent> run) {
        Object first = run.get(0).getPayload();
        if (first instanceof MemorySignalRecorded) {
            return signals(tx, model, run);
        }
        List<Tuple> rows = new ArrayList<>(run.size());
        String statement;
        if (first instanceof MemoryRecorded) {
            statement = RECORD;
            for (MemoryEvent event : run) {
                MemoryRecorded r = (MemoryRecorded) event.getPayload();
                rows.add(Tuple.tuple(Arrays.asList(tenant(event).value(), memory(event), event.getProjectId(),
                        lower(r.getOrigin()), r.getTitle(), r.getDescription(), r.getContent(), lower(r.getOutcome()),
                        r.getTags().toArray(String[]::new), r.getSourceSessionIds().toArray(String[]::new), r.getVia(),
                        r.getEmbedding().getModelId(), SearchRule.vectorLiteral(EmbeddingVectors.of(r.getEmbedding())),
                        at(event))));
            }
        } else if (first instanceof MemoryMerged) {
            statement = MERGE;
            for (MemoryEvent event : run) {
                MemoryMerged m = (MemoryMerged) event.getPayload();
                rows.add(Tuple.tuple(Arrays.asList(tenant(event).value(), memory(event), event.getHeader().getEventId(),
                        m.getDescription(), m.getContent(), m.getTags().toArray(String[]::new),
                        m.getSourceSessionIds().toArray(String[]::new),
                        m.getEmbedding() == null ? null : m.getEmbedding().getModelId(),
                        m.getEmbedding() == null ? null : SearchRule.vectorLiteral(EmbeddingVectors.of(m.getEmbedding())),
                        at(event), m.getMergedSessionId(), m.getSimilarity())));
            }
        } else if (first instanceof MemoryEmbedded) {
            statement = EMBEDDED;
            for (MemoryEvent event : run) {
                MemoryEmbedded e = (MemoryEmbedded) event.getPayload();
                rows.add(Tuple.tuple(Arrays.asList(tenant(event).value(), memory(event), e.getEmbedding().getModelId(),
                        SearchRule.vectorLiteral(EmbeddingVectors.of(e.getEmbedding())), e.getTextMd5())));
            }
        } else if (first instanceof MemoryRestated) {
            statement = RESTATE;
            for (MemoryEvent event : run) {
                rows.add(restated(event));
            }
        } else if (first instanceof MemoryDeleted) {
            statement = DELETE;
            for (MemoryEvent event : run) {
                rows.add(Tuple.of(tenant(event).value(), memory(event)));
            }
        } else if (first instanceof ProjectPurged) {
            statement = PURGE;
            for (MemoryEvent event : run) {
                rows.add(Tuple.of(tenant(event).value(), event.getProjectId(), at(event)));
            }
        } else {
            throw new IllegalArgumentException("Unknown memory event payload " + first.getClass().getName());
        }
        return tx.preparedQuery(model.sql(statement)).executeBatch(rows).replaceWithVoid();
    }

    /**
     * A run of signals in one statement: their rows, the memories' totals; then the project weights learn from the
     * votes of those explicit signals whose rows were new (so a redelivered vote is not learned twice).
     */
    private static Uni<Void> signals(SqlClient tx, ReadModel model, List<MemoryEvent> run) {
        SignalColumns c = SignalColumns.of(run);
        return tx.preparedQuery(model.sql(SIGNALS)).execute(Tuple.tuple(Arrays.asList(c.tenants(), c.eventIds(),
                c.memoryIds(), c.kinds(), c.positives(), c.sessionIds(), c.sources(), c.times()))).chain(inserted -> {
                    Set<UUID> fresh = new HashSet<>();
                    for (Row row : inserted) {
                        fresh.add(row.getUUID(0));
                    }
                    List<Tuple> learned = new ArrayList<>();
                    for (MemoryEvent event : run) {
                        WeightVotes votes = ((MemorySignalRecorded) event.getPayload()).getWeightVotes();
                        if (votes != null && fresh.contains(event.getHeader().getEventId())) {
                            learned.add(learn(tenant(event), event.getProjectId(), votes));
                        }
                    }
                    return learned.isEmpty() ? Uni.createFrom().voidItem()
                            : tx.preparedQuery(model.sql(LEARN)).executeBatch(learned).replaceWithVoid();
                });
    }

    private static Tuple learn(TenantId tenant, String project, WeightVotes votes) {
        List<Object> args = new ArrayList<>(List.of(tenant.value(), project));
        args.addAll(WeightLearning.priors());
        args.addAll(WeightLearning.increments(votes));
        return Tuple.tuple(args);
    }

    private static Tuple restated(MemoryEvent event) {
        MemoryRestated restated = (MemoryRestated) event.getPayload();
        MemoryRecorded r = restated.getMemory();
        long[] totals = new long[5];
        List<String> signalling = new ArrayList<>();
        restated.getSignals().forEach((session, t) -> {
            signalling.add(session.toString());
            totals[0] += t.getExplicitPositive();
            totals[1] += t.getExplicitNegative();
            totals[2] += t.getUsage();
            totals[3] += t.getOutcomePositive();
            totals[4] += t.getOutcomeNegative();
        });
        List<String> models = new ArrayList<>();
        List<String> vectors = new ArrayList<>();
        models.add(r.getEmbedding().getModelId());
        vectors.add(SearchRule.vectorLiteral(EmbeddingVectors.of(r.getEmbedding())));
        for (var embedding : restated.getEmbeddings()) {
            models.add(embedding.getModelId());
            vectors.add(SearchRule.vectorLiteral(EmbeddingVectors.of(embedding)));
        }
        return Tuple.tuple(Arrays.asList(tenant(event).value(), memory(event), event.getProjectId(),
                lower(r.getOrigin()), r.getTitle(), r.getDescription(), r.getContent(), lower(r.getOutcome()),
                r.getTags().toArray(String[]::new), r.getSourceSessionIds().toArray(String[]::new), r.getVia(),
                totals[0], totals[1], totals[2], totals[3], totals[4], Json.utc(restated.getRecordedAt()), at(event),
                models.toArray(String[]::new), vectors.toArray(String[]::new), signalling.toArray(String[]::new)));
    }

    private static TenantId tenant(MemoryEvent event) {
        return TenantId.of(event.getHeader().getTenantId());
    }

    private static UUID memory(MemoryEvent event) {
        return UUID.fromString(event.getMemoryId());
    }

    private static OffsetDateTime at(MemoryEvent event) {
        return Json.utc(event.getHeader().getRecordedAt());
    }

    private static String lower(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT);
    }
}
