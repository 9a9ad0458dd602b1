package dev.hindsight.memory.store;

import dev.hindsight.memorymodel.search.Neighbour;
import dev.hindsight.memorymodel.search.ProjectCentres;
import dev.hindsight.memorymodel.search.SearchRule;
import dev.hindsight.memorymodel.search.VectorSearch;
import dev.hindsight.platform.tenant.TenantId;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * {@link VectorStore} on pgvector in memory-service's own database: table {@code memory_vector}, an HNSW index with
 * cosine distance. Filtering by tenant and project happens inside the index scan: the pool's connections start with
 * {@code hnsw.iterative_scan = relaxed_order} (application.properties), so a filtered scan keeps walking the graph
 * until it has {@code k} rows or has visited {@code hnsw.max_scan_tuples}; "relaxed" order is why results are
 * re-sorted here.
 * Vectors travel as pgvector's text form, cast in SQL (the reactive client has no vector codec). A project of at most
 * {@link SearchRule#EXACT_SEARCH_UP_TO} vectors is searched exactly instead, without the index, and so is a larger one
 * whose index search {@linkplain SearchRule#cameBackShort came back short}; the count comes with the project's
 * {@linkplain #centre centre}, which this replica keeps ({@link ProjectCentres}).
 */
@Singleton
public class PgVectorStore implements VectorStore {

    private static final String PUT = """
            INSERT INTO memory_vector (memory_id, tenant_id, project_id, model_id, embedding)
            VALUES ($1, $2, $3, $4, $5::vector)
            ON CONFLICT (memory_id, model_id) DO UPDATE SET embedding = EXCLUDED.embedding
            WHERE memory_vector.tenant_id = EXCLUDED.tenant_id""";
    private static final String NEAREST = VectorSearch.nearest("memory_vector", false);
    private static final String NEAREST_EXACT = VectorSearch.nearest("memory_vector", true);
    private static final String CENTRE = VectorSearch.centre("memory_vector");

    private final Pool pool;
    private final ProjectCentres<TenantId> centres = ProjectCentres.forSearch();

    public PgVectorStore(Pool pool) {
        this.pool = pool;
    }

    @Override
    public Uni<Void> put(SqlClient tx, Entry entry) {
        return tx.preparedQuery(PUT).execute(Tuple.of(entry.memoryId(), entry.tenant().value(), entry.project(),
                entry.modelId(), SearchRule.vectorLiteral(entry.vector()))).replaceWithVoid();
    }

    @Override
    public Uni<Void> remove(SqlClient tx, TenantId tenant, UUID memoryId) {
        return tx.preparedQuery("DELETE FROM memory_vector WHERE tenant_id = $1 AND memory_id = $2")
                .execute(Tuple.of(tenant.value(), memoryId)).replaceWithVoid();
    }

    @Override
    public Uni<Void> retainOnly(SqlClient tx, TenantId tenant, UUID memoryId, String modelId) {
        return tx.preparedQuery("DELETE FROM memory_vector WHERE tenant_id = $1 AND memory_id = $2 AND model_id <> $3")
                .execute(Tuple.of(tenant.value(), memoryId, modelId)).replaceWithVoid();
    }

    @Override
    public Uni<Map<String, Long>> countByModel() {
        return pool.query("SELECT model_id, count(*) FROM memory_vector /* every tenant: the models' coverage */ GROUP BY model_id").execute().map(rows -> {
            Map<String, Long> counts = new HashMap<>();
            for (Row row : rows) {
                counts.put(row.getString(0), row.getLong(1));
            }
            return counts;
        });
    }

    @Override
    public Uni<List<UUID>> lacking(String modelId, UUID after, int limit) {
        return pool.preparedQuery("""
                SELECT m.id FROM memory m /* every tenant: re-embedding */
                WHERE ($2::uuid IS NULL OR m.id > $2)
                  AND NOT EXISTS (SELECT 1 FROM memory_vector v WHERE v.memory_id = m.id AND v.model_id = $1)
                ORDER BY m.id LIMIT $3""").execute(Tuple.of(modelId, after, limit)).map(rows -> {
                    List<UUID> ids = new ArrayList<>(rows.size());
                    for (Row row : rows) {
                        ids.add(row.getUUID(0));
                    }
                    return ids;
                });
    }

    @Override
    public Uni<Integer> retireOthers(String keep, int limit) {
        return pool.preparedQuery("""
                DELETE FROM memory_vector /* every tenant: retiring a model */ WHERE (memory_id, model_id) IN (
                    SELECT memory_id, model_id FROM memory_vector WHERE model_id <> $1 LIMIT $2)""")
                .execute(Tuple.of(keep, limit)).map(done -> done.rowCount());
    }

    @Override
    public Uni<Map<String, float[]>> of(SqlClient tx, TenantId tenant, UUID memoryId) {
        return tx.preparedQuery("""
                SELECT model_id, embedding::real[] FROM memory_vector WHERE tenant_id = $1 AND memory_id = $2
                ORDER BY model_id""").execute(Tuple.of(tenant.value(), memoryId)).map(rows -> {
                    Map<String, float[]> vectors = new LinkedHashMap<>();
                    for (Row row : rows) {
                        vectors.put(row.getString(0), SearchRule.vectorOf(row.getArrayOfFloats(1)));
                    }
                    return vectors;
                });
    }

    @Override
    public Uni<Void> removeAll(SqlClient tx, TenantId tenant, List<UUID> memoryIds) {
        if (memoryIds.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return tx.preparedQuery("DELETE FROM memory_vector WHERE tenant_id = $1 AND memory_id = ANY($2)")
                .execute(Tuple.of(tenant.value(), memoryIds.toArray(UUID[]::new))).replaceWithVoid();
    }

    @Override
    public Uni<SearchRule.Centre> centre(TenantId tenant, String project, String modelId) {
        return centres.centre(tenant, project, modelId, () -> pool.preparedQuery(CENTRE)
                .execute(Tuple.of(tenant.value(), project, modelId, SearchRule.CENTRE_AVERAGES_AT_MOST))
                .map(rows -> SearchRule.centreOf(rows.iterator().next().getArrayOfFloats(0),
                        rows.iterator().next().getLong(1))));
    }

    @Override
    public Uni<List<Neighbour>> nearest(TenantId tenant, String project, String modelId, float[] query, int k) {
        return centre(tenant, project, modelId).flatMap(centre -> nearest(tenant, project, modelId, query, k, centre));
    }

    @Override
    public Uni<List<Neighbour>> nearest(TenantId tenant, String project, String modelId, float[] query, int k,
            SearchRule.Centre centre) {
        return VectorSearch.nearest(centre, k, exact -> nearest(tenant, project, modelId, query, k, exact), List::size);
    }

    private Uni<List<Neighbour>> nearest(TenantId tenant, String project, String modelId, float[] query, int k,
            boolean exact) {
        return pool.preparedQuery(exact ? NEAREST_EXACT : NEAREST)
                .execute(Tuple.of(tenant.value(), project, modelId, SearchRule.vectorLiteral(query), k)).map(rows -> {
            List<Neighbour> found = new ArrayList<>(rows.size());
            for (Row row : rows) {
                found.add(new Neighbour(row.getUUID(0), row.getDouble(1), SearchRule.vectorOf(row.getArrayOfFloats(2))));
            }
            found.sort((a, b) -> Double.compare(b.similarity(), a.similarity()));
            return found;
        });
    }

    @Override
    public Uni<Long> count(TenantId tenant, String project) {
        return pool.preparedQuery("SELECT count(*) FROM memory_vector WHERE tenant_id = $1 AND project_id = $2")
                .execute(Tuple.of(tenant.value(), project)).map(rows -> rows.iterator().next().getLong(0));
    }
}
