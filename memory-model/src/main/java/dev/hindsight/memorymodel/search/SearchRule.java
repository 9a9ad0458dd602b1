package dev.hindsight.memorymodel.search;

import dev.hindsight.memorymodel.confidence.MemoryOrigin;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * How the ReasoningBank answers a search (design.md § Semantic search), wherever it is asked: the project's most
 * relevant memories by embedding ({@link #relevanceQuery}), post-filtered to a minimum confidence, most relevant first,
 * with one slot for a distilled memory on probation. memory-service's API and MCP tools and query-service's console
 * apply this same rule to the same vectors, so both show the same memories for a query.
 *
 * <p><b>Probation.</b> A distilled memory starts at 0.6, below the 0.7 minimum, and the seed fixes both numbers; its
 * only way up is evidence, and evidence comes from being used. So an answer of two or more results gives one slot
 * ({@link #DEFAULT_PROBATION_SLOTS}) to the most relevant memory {@linkplain #onProbation on probation}, when it is
 * more relevant than the confident result it displaces. Being shown records a usage signal, as for every result: two
 * appearances (usage weight 0.5) lift it to 0.714, where it is found on its own; one unhelpful rating in between sinks
 * it below its prior and ends its probation. A search of one result always answers with a confident memory.
 *
 * <p><b>Near-duplicates.</b> Two memories of the same outcome whose vectors are at least
 * {@link #DEFAULT_DUPLICATE_SIMILARITY} alike (the distiller's merge threshold) say the same thing; an answer shows the
 * one more similar to the query and skips the other, so that copies do not crowd out different lessons.
 *
 * <p><b>Hubness</b> (off unless configured, {@link #DEFAULT_HUBNESS}). A generic memory ("check the logs first") lies
 * close to many other memories of its project, and so close to many questions: by relevance alone it crowds answers
 * that a specific lesson should have. An answer can therefore order its candidates by relevance minus a weight times
 * each one's {@linkplain #hubness hubness} among the query's {@link #DEFAULT_HUBNESS_POOL} nearest memories, vectors
 * the search reads anyway (after CSLS, cross-domain similarity local scaling). Only the most relevant of them are
 * candidates (at least {@link #DEFAULT_MIN_CANDIDATES}, so that an answer's first results do not depend on how many
 * were asked for): the rest are there to measure hubness among, and never answer. A memory far down that pool has few
 * near memories in it, so a hubness low for want of company, and would otherwise climb over the relevant ones.
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

    /** The fewest candidates an answer is chosen from, whatever the limit. */
    public static final String DEFAULT_MIN_CANDIDATES = "40";

    /**
     * How many of the query's nearest memories a search reads to measure each candidate's {@linkplain #hubness hubness}
     * among (docs/adr/0017-memory-search-with-an-optional-hubness-penalty.md): the candidates and, beyond them, their company.
     */
    public static final String DEFAULT_HUBNESS_POOL = "100";

    /**
     * How much a candidate's {@linkplain #hubness hubness} lowers its relevance; 0, the default, orders by relevance
     * alone. Off, because the retrieval benchmark's gain from it (0.5) came from how its corpus is made, not from a
     * better order (docs/adr/0017-memory-search-with-an-optional-hubness-penalty.md).
     */
    public static final String DEFAULT_HUBNESS = "0";

    /** How many of its fellow candidates a candidate's {@linkplain #hubness hubness} averages its similarity to. */
    public static final int HUBNESS_NEIGHBOURS = 10;

    /** Results of one answer that may go to memories on probation (at most the limit minus one). */
    public static final String DEFAULT_PROBATION_SLOTS = "1";

    /**
     * Cosine similarity at or above which a candidate repeats a result already in the answer (with the same outcome)
     * and is skipped: the distiller's merge threshold ({@code hindsight.memory.distill.merge-similarity}).
     */
    public static final String DEFAULT_DUPLICATE_SIMILARITY = "0.9";

    /** The most candidates one search reads, whatever the limit. */
    public static final int MAX_CANDIDATES = 1000;

    private SearchRule() {
    }

    /** How many nearest neighbours to fetch for {@code limit} results, and at least {@code atLeast}. */
    public static int candidates(int limit, int perResult, int atLeast) {
        return Math.min(MAX_CANDIDATES, Math.max(atLeast, limit * Math.max(1, perResult)));
    }

    /**
     * How many nearest neighbours a search reads: its {@code candidates} and, when hubness counts, at least the
     * {@code hubnessPool} that hubness is measured among.
     */
    public static int neighboursRead(int candidates, int hubnessPool, double hubness) {
        return hubness == 0 ? candidates : Math.min(MAX_CANDIDATES, Math.max(candidates, hubnessPool));
    }

    /**
     * The thresholds of one search: the minimum confidence, how many results may be on probation, the cosine
     * similarity at which a candidate is a near-duplicate of a result (above 1: never), how much a candidate's
     * {@linkplain #hubness hubness} lowers its place (0: not at all), and how many of the most relevant neighbours are
     * candidates (the rest only measure hubness among).
     */
    public record Policy(double minConfidence, int probationSlots, double duplicateSimilarity, double hubness,
            int candidates) {
    }

    /** What the rule reads of a memory. */
    public interface Facts<M> {
        double confidence(M memory);

        MemoryOrigin origin(M memory);

        /** {@code success} or {@code failure}: near-duplicates are collapsed only within one outcome. */
        String outcome(M memory);

        /** The facts read by these accessors. */
        static <M> Facts<M> of(ToDoubleFunction<M> confidence, Function<M, MemoryOrigin> origin,
                Function<M, String> outcome) {
            return new Facts<>() {
                @Override
                public double confidence(M memory) {
                    return confidence.applyAsDouble(memory);
                }

                @Override
                public MemoryOrigin origin(M memory) {
                    return origin.apply(memory);
                }

                @Override
                public String outcome(M memory) {
                    return outcome.apply(memory);
                }
            };
        }
    }

    /** Makes a result from a memory, its similarity to the query and whether it is shown on probation. */
    @FunctionalInterface
    public interface Hit<M, H> {
        H of(M memory, double similarity, boolean probation);
    }

    /**
     * Whether a memory below the minimum confidence may still be shown, in a probation slot: a distilled memory that no
     * evidence has yet taken below its prior (0.6). An explicit memory below the minimum has been rated down, as has a
     * distilled one below its prior; neither is shown.
     */
    public static boolean onProbation(MemoryOrigin origin, double confidence, double minConfidence) {
        return origin == MemoryOrigin.DISTILLED && confidence < minConfidence
                && confidence >= MemoryOrigin.DISTILLED.initialConfidence();
    }

    /**
     * The answer: the neighbours whose memory still exists (a vector may outlive its memory for a moment) and whose
     * confidence is at least the minimum, among the {@code policy.candidates()} most relevant, most relevant first
     * (relevance less {@code policy.hubness()} times the neighbour's {@linkplain #hubness hubness} among all the
     * neighbours), at most {@code limit}; of those, up to
     * {@code min(probationSlots, limit - 1)} may instead be memories {@linkplain #onProbation on probation}, each in
     * the place its relevance gives it (so it displaces the least relevant confident result, never a more relevant
     * one).
     * A candidate that is a near-duplicate of a result already taken (same outcome, vectors at least
     * {@code duplicateSimilarity} alike) is skipped and takes no place.
     *
     * @param centre   the project's centre, which hubness is measured beyond (null: none)
     * @param memories the neighbours' memories by id, as read now (absent = deleted)
     * @param hit      makes a result from a memory, its similarity and whether it is on probation
     */
    public static <M, H> List<H> rank(List<Neighbour> neighbours, Centre centre, Map<UUID, M> memories,
            Facts<M> facts, Policy policy, int limit, Hit<M, H> hit) {
        List<Neighbour> ordered = ordered(neighbours, centre, policy.hubness(), policy.candidates());
        List<H> found = new ArrayList<>(Math.min(limit, ordered.size()));
        List<Taken> taken = new ArrayList<>(Math.min(limit, ordered.size()));
        int probation = Math.max(0, Math.min(policy.probationSlots(), limit - 1));
        for (Neighbour neighbour : ordered) {
            M memory = memories.get(neighbour.memoryId());
            if (memory == null) {
                continue;
            }
            double c = facts.confidence(memory);
            boolean confident = c >= policy.minConfidence();
            boolean onProbation = !confident && probation > 0
                    && onProbation(facts.origin(memory), c, policy.minConfidence());
            Taken candidate = new Taken(neighbour, facts.outcome(memory));
            if (!confident && !onProbation || candidate.repeatsAny(taken, policy.duplicateSimilarity())) {
                continue;
            }
            if (onProbation) {
                probation--;
            }
            found.add(hit.of(memory, neighbour.similarity(), onProbation));
            taken.add(candidate);
            if (found.size() == limit) {
                break;
            }
        }
        return found;
    }

    /**
     * The memories of the {@code candidates} most relevant neighbours: the only ones an answer can show, so the only
     * ones a search needs to load (the rest of the neighbours only measure hubness among).
     */
    public static List<UUID> candidateIds(List<Neighbour> neighbours, int candidates) {
        return neighbours.stream().sorted(Comparator.comparingDouble(Neighbour::relevance).reversed())
                .limit(Math.max(0, candidates)).map(Neighbour::memoryId).toList();
    }

    /**
     * The candidates in the order an answer considers them: the {@code candidates} most relevant neighbours, by
     * relevance less {@code weight} times their hubness among all the neighbours.
     */
    static List<Neighbour> ordered(List<Neighbour> neighbours, Centre centre, double weight, int candidates) {
        Integer[] byRelevance = new Integer[neighbours.size()];
        for (int i = 0; i < byRelevance.length; i++) {
            byRelevance[i] = i;
        }
        Arrays.sort(byRelevance,
                Comparator.comparingDouble((Integer i) -> neighbours.get(i).relevance()).reversed());
        Integer[] chosen = Arrays.copyOf(byRelevance, Math.min(Math.max(0, candidates), byRelevance.length));
        if (weight != 0 && neighbours.size() > 1) {
            double[] hubness = hubness(neighbours, centre);
            Arrays.sort(chosen, Comparator.comparingDouble(
                    (Integer i) -> neighbours.get(i).relevance() - weight * hubness[i]).reversed());
        }
        List<Neighbour> ordered = new ArrayList<>(chosen.length);
        for (Integer i : chosen) {
            ordered.add(neighbours.get(i));
        }
        return ordered;
    }

    /**
     * Each neighbour's hubness among the others: the mean cosine of its vector to the {@link #HUBNESS_NEIGHBOURS}
     * most similar of theirs, every vector taken beyond the project's centre as a {@linkplain #relevanceQuery relevance
     * query} is (what all of a project's memories share is no sign of being generic). A neighbour without a vector has
     * hubness 0 and counts for no other's.
     */
    public static double[] hubness(List<Neighbour> neighbours, Centre centre) {
        int n = neighbours.size();
        float[][] beyond = new float[n][];
        for (int i = 0; i < n; i++) {
            float[] vector = neighbours.get(i).vector();
            beyond[i] = vector == null ? null : unit(relevanceQuery(vector, centre));
        }
        // Each row keeps its most similar cosines, largest first; the matrix is symmetric, so each pair is one dot.
        int k = Math.max(0, Math.min(HUBNESS_NEIGHBOURS, n - 1));
        double[][] nearest = new double[n][k];
        int[] kept = new int[n];
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                if (beyond[i] == null || beyond[j] == null || beyond[i].length != beyond[j].length) {
                    continue;
                }
                double cosine = dot(beyond[i], beyond[j]);
                kept[i] = keep(nearest[i], kept[i], cosine);
                kept[j] = keep(nearest[j], kept[j], cosine);
            }
        }
        double[] hubness = new double[n];
        for (int i = 0; i < n; i++) {
            double sum = 0;
            for (int x = 0; x < kept[i]; x++) {
                sum += nearest[i][x];
            }
            hubness[i] = kept[i] == 0 ? 0 : sum / kept[i];
        }
        return hubness;
    }

    /** Keeps {@code value} among the largest of {@code top} (its first {@code size} sorted descending); the new size. */
    private static int keep(double[] top, int size, double value) {
        if (top.length == 0 || size == top.length && value <= top[size - 1]) {
            return size;
        }
        int at = size;
        if (size < top.length) {
            size++;
        } else {
            at = size - 1;
        }
        while (at > 0 && top[at - 1] < value) {
            top[at] = top[at - 1];
            at--;
        }
        top[at] = value;
        return size;
    }

    private static float[] unit(float[] vector) {
        double norm = Math.sqrt(dot(vector, vector));
        if (norm == 0) {
            return vector;
        }
        float[] unit = new float[vector.length];
        for (int i = 0; i < vector.length; i++) {
            unit[i] = (float) (vector[i] / norm);
        }
        return unit;
    }

    /** The dot product, in four independent sums: a search takes thousands of them (float precision is ample). */
    private static double dot(float[] x, float[] y) {
        float s0 = 0;
        float s1 = 0;
        float s2 = 0;
        float s3 = 0;
        int i = 0;
        for (; i + 3 < x.length; i += 4) {
            s0 += x[i] * y[i];
            s1 += x[i + 1] * y[i + 1];
            s2 += x[i + 2] * y[i + 2];
            s3 += x[i + 3] * y[i + 3];
        }
        for (; i < x.length; i++) {
            s0 += x[i] * y[i];
        }
        return (double) s0 + s1 + s2 + s3;
    }

    /** A result of the answer: its neighbour (with the vector) and its outcome. */
    private record Taken(Neighbour neighbour, String outcome) {

        /** Whether this says what a result already taken says: the same outcome, vectors this alike. */
        boolean repeatsAny(List<Taken> taken, double duplicateSimilarity) {
            for (Taken result : taken) {
                if (outcome != null && outcome.equals(result.outcome())
                        && neighbour.cosine(result.neighbour()) >= duplicateSimilarity) {
                    return true;
                }
            }
            return false;
        }
    }

    /**
     * How many memories a project's centre counts as much as: a project of {@code n} memories moves the query by
     * {@code n / (n + CENTRE_PRIOR)} of its centre, so two or three memories barely move it and thousands move it all
     * the way. A handful of memories is no estimate of what a project's memories share.
     */
    public static final int CENTRE_PRIOR = 50;

    /** How long a service uses a project's centre before reading it again (in the background). */
    public static final java.time.Duration CENTRE_MAX_AGE = java.time.Duration.ofSeconds(60);

    /** The most projects' centres a service keeps. */
    public static final int CENTRES_KEPT = 10_000;

    /**
     * The vector a search looks for (design.md § Semantic search): the query's normalised vector minus the project's
     * centre (the mean of its memories' vectors), weighted by {@link #CENTRE_PRIOR}. The memories of one project are
     * all about the same few things, so every one of them shares the direction of that centre, and the plain cosine
     * ranks a memory by how much it is about those things, which all are; taking the centre away ranks it by what the
     * query asks beyond them. Memory vectors are normalised, so the cosine to this vector orders memories by
     * {@code memory · (query - w·centre)}, which the cosine index answers directly. Without a centre the query is the
     * query.
     */
    public static float[] relevanceQuery(float[] query, Centre centre) {
        if (centre == null || centre.count() == 0) {
            return query;
        }
        double norm = 0;
        for (float x : query) {
            norm += x * x;
        }
        norm = Math.sqrt(norm);
        float[] mean = centre.mean();
        if (norm == 0 || mean.length != query.length) {
            return query;
        }
        double w = centre.count() / (double) (centre.count() + CENTRE_PRIOR);
        float[] shifted = new float[query.length];
        for (int i = 0; i < query.length; i++) {
            shifted[i] = (float) (query[i] / norm - w * mean[i]);
        }
        return shifted;
    }

    /**
     * The most memories a project may have for its search to compare the query with every one of them rather than walk
     * the HNSW index. The index holds every tenant's and project's vectors; a project that is a small part of them
     * gets a worse answer from a filtered walk than from the exact comparison, which costs about 2 ms per 1,000
     * vectors.
     */
    public static final long EXACT_SEARCH_UP_TO = 10_000;

    /** Whether a project with this centre is searched exactly ({@link #EXACT_SEARCH_UP_TO}); no centre: no vectors. */
    public static boolean searchedExactly(Centre centre) {
        return centre != null && centre.count() <= EXACT_SEARCH_UP_TO;
    }

    /**
     * Whether an index search that found {@code found} of the {@code k} asked for came back short, and the project is
     * searched again exactly. The index holds every tenant's and project's vectors, and a filtered walk gives up after
     * {@code hnsw.max_scan_tuples} (20,000) entries: a project among many others' vectors near the query can get fewer
     * than it has, or none. A short answer from a project that has more is never the answer.
     */
    public static boolean cameBackShort(int found, int k, Centre centre) {
        return centre != null && found < Math.min(k, centre.count());
    }

    /**
     * The most vectors a project's centre averages: one more than {@link #EXACT_SEARCH_UP_TO}, so that its count also
     * says whether the project is searched exactly. A larger project's centre is the mean of the first of its vectors
     * the store reads, a sample large enough to estimate it, and the read stays as cheap as for 10,000 memories (29–95
     * ms against 0.55–0.69 s for all of 100,926).
     */
    public static final int CENTRE_AVERAGES_AT_MOST = (int) EXACT_SEARCH_UP_TO + 1;

    /** The mean of a project's memory vectors for one model, and how many memories it averages. */
    public record Centre(float[] mean, long count) {
    }

    /** A centre as read from pgvector ({@code avg(embedding)::real[], count(*)}); null when there is no vector. */
    public static Centre centreOf(Float[] mean, long count) {
        return mean == null || count == 0 ? null : new Centre(vectorOf(mean), count);
    }

    /** What a memory is embedded from: its title, description and content together. */
    public static String embeddingText(String title, String description, String content) {
        StringBuilder text = new StringBuilder(title);
        if (description != null && !description.isBlank()) {
            text.append(". ").append(description);
        }
        return text.append(". ").append(content).toString();
    }

    /**
     * A vector read from pgvector as {@code embedding::real[]}, which the reactive client decodes in binary (cheaper
     * than parsing the text form); null stays null.
     */
    public static float[] vectorOf(Float[] values) {
        if (values == null) {
            return null;
        }
        float[] vector = new float[values.length];
        for (int i = 0; i < values.length; i++) {
            vector[i] = values[i];
        }
        return vector;
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
