package dev.hindsight.memorymodel.search;

import io.smallrye.mutiny.Uni;
import java.util.function.Function;
import java.util.function.ToIntFunction;

/**
 * The SQL and the choice of a project's nearest-vector search over pgvector, for every store of memory vectors
 * (memory-service's {@code memory_vector}, query-service's read model): the same statements and the same rule, so
 * both find the same memories. Statement parameters: {@code $1} tenant, {@code $2} project, {@code $3} model,
 * {@code $4} the query vector in pgvector's text form, {@code $5} how many; the centre's {@code $4} is
 * {@link SearchRule#CENTRE_AVERAGES_AT_MOST}.
 */
public final class VectorSearch {

    private VectorSearch() {
    }

    /**
     * The project's nearest vectors, with each one's cosine similarity to the query and the vector itself: through
     * the HNSW index ({@code <=>}, which it serves), or with {@code exact} by comparing with every vector of the
     * project ({@code cosine_distance}, the function form, which no index serves).
     */
    public static String nearest(String table, boolean exact) {
        String distance = exact ? "cosine_distance(embedding, $4::vector)" : "embedding <=> $4::vector";
        return "SELECT memory_id, 1 - (" + distance + ") AS similarity, embedding::real[] FROM " + table
                + " WHERE tenant_id = $1 AND project_id = $2 AND model_id = $3 ORDER BY " + distance + " LIMIT $5";
    }

    /** The project's {@linkplain SearchRule.Centre centre}: the mean of at most so many of its vectors, and how many. */
    public static String centre(String table) {
        return "SELECT avg(embedding)::real[], count(*) FROM (SELECT embedding FROM " + table
                + " WHERE tenant_id = $1 AND project_id = $2 AND model_id = $3 LIMIT $4) averaged";
    }

    /**
     * Runs {@code search} (given whether to search exactly) as the rule says: exactly for a project of at most
     * {@link SearchRule#EXACT_SEARCH_UP_TO} vectors, else through the index and again exactly when that
     * {@linkplain SearchRule#cameBackShort came back short} of {@code k}.
     */
    public static <T> Uni<T> nearest(SearchRule.Centre centre, int k, Function<Boolean, Uni<T>> search,
            ToIntFunction<T> found) {
        boolean exact = SearchRule.searchedExactly(centre);
        return search.apply(exact).chain(result -> !exact && SearchRule.cameBackShort(found.applyAsInt(result), k,
                centre) ? search.apply(true) : Uni.createFrom().item(result));
    }
}
