package dev.hindsight.memory.search;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.BiFunction;
import java.util.function.ToDoubleFunction;

/**
 * How the ReasoningBank answers a search (design.md § Semantic search), wherever it is asked: the project's nearest
 * memories by embedding, post-filtered to a minimum confidence, most similar first. memory-service's API and MCP tools
 * and query-service's console apply this same rule to the same vectors, so both show the same memories for a query.
 */
public final class SearchRule {

    /** MinConfidence (design.md § Semantic search): a search returns only memories at or above it. */
    public static final String DEFAULT_MIN_CONFIDENCE = "0.7";

    /**
     * Nearest neighbours fetched per result asked for, before the confidence post-filter (confidence filters after the
     * vector search, design.md § Semantic search); more candidates keep results full when many near memories are below
     * the threshold.
     */
    public static final String DEFAULT_CANDIDATES_PER_RESULT = "4";

    /** The most candidates one search reads, whatever the limit. */
    public static final int MAX_CANDIDATES = 1000;

    private SearchRule() {
    }

    /** How many nearest neighbours to fetch for {@code limit} results. */
    public static int candidates(int limit, int perResult) {
        return Math.min(MAX_CANDIDATES, limit * Math.max(1, perResult));
    }

    /**
     * The answer: the neighbours whose memory still exists (a vector may outlive its memory for a moment) and whose
     * confidence is at least {@code minConfidence}, most similar first, at most {@code limit}.
     *
     * @param memories the neighbours' memories by id, as read now (absent = deleted)
     * @param hit      makes a result from a memory and its similarity
     */
    public static <M, H> List<H> rank(List<Neighbour> neighbours, Map<UUID, M> memories,
            ToDoubleFunction<M> confidence, double minConfidence, int limit, BiFunction<M, Double, H> hit) {
        List<Neighbour> ordered = new ArrayList<>(neighbours);
        ordered.sort(Comparator.comparingDouble(Neighbour::similarity).reversed());
        List<H> found = new ArrayList<>(Math.min(limit, ordered.size()));
        for (Neighbour neighbour : ordered) {
            M memory = memories.get(neighbour.memoryId());
            if (memory != null && confidence.applyAsDouble(memory) >= minConfidence) {
                found.add(hit.apply(memory, neighbour.similarity()));
                if (found.size() == limit) {
                    break;
                }
            }
        }
        return found;
    }

    /** What a memory is embedded from: its title, description and content together. */
    public static String embeddingText(String title, String description, String content) {
        StringBuilder text = new StringBuilder(title);
        if (description != null && !description.isBlank()) {
            text.append(". ").append(description);
        }
        return text.append(". ").append(content).toString();
    }

    /** A vector in pgvector's text form, {@code [0.1,0.2,...]}, to be cast with {@code ::vector} in SQL. */
    public static String vectorLiteral(float[] vector) {
        StringBuilder text = new StringBuilder(vector.length * 12).append('[');
        for (int i = 0; i < vector.length; i++) {
            if (i > 0) {
                text.append(',');
            }
            text.append(vector[i]);
        }
        return text.append(']').toString();
    }
}
