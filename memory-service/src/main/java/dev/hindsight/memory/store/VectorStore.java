package dev.hindsight.memory.store;

import io.smallrye.mutiny.Uni;
import java.util.List;
import java.util.UUID;

/**
 * Where memory embeddings live and are searched: a derived index of the memory table, which stays the truth (search
 * drops neighbours whose memory is gone, and replaying hindsight.memory.v1 rebuilds it). pgvector is the store that
 * ships ({@link PgVectorStore}); another (Qdrant, say) implements these operations. Every call is scoped to a
 * tenant: there is no way to search or delete across tenants.
 */
public interface VectorStore {

    record Entry(String tenant, String project, UUID memoryId, String modelId, float[] vector) {
    }

    /** A memory and its cosine similarity to the query, 1 = same direction. */
    record Neighbour(UUID memoryId, double similarity) {
    }

    /** Adds or replaces a memory's vector (idempotent). */
    Uni<Void> put(Entry entry);

    Uni<Void> remove(String tenant, UUID memoryId);

    /** Removes the project's vectors of memories in {@code memoryIds} (a purge passes the ones it deleted). */
    Uni<Void> removeAll(String tenant, List<UUID> memoryIds);

    /** The {@code k} nearest vectors of the tenant's project made by {@code modelId}, most similar first. */
    Uni<List<Neighbour>> nearest(String tenant, String project, String modelId, float[] query, int k);

    /** How many vectors the store holds for the project (operators and tests). */
    Uni<Long> count(String tenant, String project);
}
