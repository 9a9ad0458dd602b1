package dev.hindsight.memory.store;

import dev.hindsight.memorymodel.search.Neighbour;
import dev.hindsight.memorymodel.search.SearchRule;
import dev.hindsight.platform.tenant.TenantId;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlClient;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Where memory embeddings live and are searched: a derived index of the memory table, which stays the truth (search
 * drops neighbours whose memory is gone, and replaying hindsight.memory.v1 rebuilds it). pgvector is the store that
 * ships ({@link PgVectorStore}); another (Qdrant, say) implements these operations. Every call is scoped to a
 * tenant: there is no way to search or delete across tenants.
 */
public interface VectorStore {

    record Entry(TenantId tenant, String project, UUID memoryId, String modelId, float[] vector) {
    }

    /**
     * Adds or replaces a memory's vector (idempotent). Writes take the projection's open transaction on
     * memory-service's database: a store in that database (pgvector) writes within it, so a memory and its vector
     * commit or roll back together and a write never needs a second connection while the transaction holds one; a
     * store elsewhere ignores it (its writes are idempotent, and the projection's ledger retries them).
     */
    Uni<Void> put(SqlClient tx, Entry entry);

    Uni<Void> remove(SqlClient tx, TenantId tenant, UUID memoryId);

    /**
     * Removes the memory's vectors of models other than {@code modelId}: its text changed (a merge), so they no longer
     * describe it; the next build embeds it again with the configured model.
     */
    Uni<Void> retainOnly(SqlClient tx, TenantId tenant, UUID memoryId, String modelId);

    /**
     * The memory's vectors by model, read within {@code tx}: every generation it has, to be written again as they are
     * (a memory re-keyed after an erasure, ADR 0028).
     */
    Uni<Map<String, float[]>> of(SqlClient tx, TenantId tenant, UUID memoryId);

    /** Removes the project's vectors of memories in {@code memoryIds} (a purge passes the ones it deleted). */
    Uni<Void> removeAll(SqlClient tx, TenantId tenant, List<UUID> memoryIds);

    /**
     * The mean of the project's vectors of {@code modelId} and how many there are ({@link SearchRule#relevanceQuery});
     * null when it has none. As this replica last read it: at most {@link SearchRule#CENTRE_MAX_AGE} old but for a
     * read in the background.
     */
    Uni<SearchRule.Centre> centre(TenantId tenant, String project, String modelId);

    /**
     * The {@code k} nearest vectors of the tenant's project made by {@code modelId}, most similar first: exactly for a
     * project of at most {@link SearchRule#EXACT_SEARCH_UP_TO} vectors, by the HNSW index for a larger one, and exactly
     * again when the index {@linkplain SearchRule#cameBackShort came back short}.
     */
    Uni<List<Neighbour>> nearest(TenantId tenant, String project, String modelId, float[] query, int k);

    /** {@link #nearest}, for a caller that has already read the project's {@link #centre}. */
    Uni<List<Neighbour>> nearest(TenantId tenant, String project, String modelId, float[] query, int k,
            SearchRule.Centre centre);

    /** How many vectors each model has, across tenants: which model covers the memories (design.md § Re-embedding). */
    Uni<Map<String, Long>> countByModel();

    /**
     * Up to {@code limit} memories (of every tenant) without a vector of {@code modelId}, in id order after
     * {@code after} (null: from the start): what a build of that model's generation still has to embed.
     */
    Uni<List<UUID>> lacking(String modelId, UUID after, int limit);

    /** Deletes up to {@code limit} vectors of models other than {@code keep}; completes with how many it deleted. */
    Uni<Integer> retireOthers(String keep, int limit);

    /** How many vectors the store holds for the project (operators and tests). */
    Uni<Long> count(TenantId tenant, String project);
}
