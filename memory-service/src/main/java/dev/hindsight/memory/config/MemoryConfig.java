package dev.hindsight.memory.config;

import dev.hindsight.memorymodel.search.SearchRule;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/**
 * memory-service's settings ({@code hindsight.memory.*}); every key has a default that matches
 * design.md § ReasoningBank memory.
 */
@ConfigMapping(prefix = "hindsight.memory")
public interface MemoryConfig {

    Search search();

    Distill distill();

    Signals signals();

    Context context();

    Work work();

    Embedding embedding();

    interface Search {
        /** MinConfidence (design.md § Semantic search): search and context return only memories at or above it. */
        @WithDefault(SearchRule.DEFAULT_MIN_CONFIDENCE)
        double minConfidence();

        /** DefaultSearchLimit (REST and context; the MCP tool's own default is 5): design.md § Semantic search. */
        @WithDefault("10")
        int defaultLimit();

        @WithDefault("50")
        int maxLimit();

        /**
         * Nearest neighbours fetched per result asked for, before the confidence post-filter (confidence filters after
         * the vector search, design.md § Semantic search); more candidates keep results full when many near memories
         * are below the threshold.
         */
        @WithDefault(SearchRule.DEFAULT_CANDIDATES_PER_RESULT)
        int candidatesPerResult();

        /** The fewest candidates an answer is chosen from, whatever the limit (design.md § Semantic search). */
        @WithDefault(SearchRule.DEFAULT_MIN_CANDIDATES)
        int minCandidates();

        /**
         * How many of the query's nearest memories a search reads to measure each candidate's hubness among: the
         * candidates and, beyond them, their company (design.md § Semantic search).
         */
        @WithDefault(SearchRule.DEFAULT_HUBNESS_POOL)
        int hubnessPool();

        /**
         * How much a candidate's hubness (its mean similarity to its most similar among the query's near memories,
         * beyond the project's centre) lowers its relevance, so that generic memories give way to specific ones
         * (design.md § Semantic search); 0, the default, ranks by relevance alone.
         */
        @WithDefault(SearchRule.DEFAULT_HUBNESS)
        double hubness();

        /**
         * Results of an answer of two or more that may go to a distilled memory on probation, below the minimum
         * confidence but not below its prior, so that it can earn its first evidence (design.md § Semantic search).
         * 0 turns probation off.
         */
        @WithDefault(SearchRule.DEFAULT_PROBATION_SLOTS)
        int probationSlots();

        /**
         * A candidate this similar (cosine) to a result already in the answer, with the same outcome, is a
         * near-duplicate and is skipped (design.md § Semantic search). Above 1 turns collapsing off.
         */
        @WithDefault(SearchRule.DEFAULT_DUPLICATE_SIMILARITY)
        double duplicateSimilarity();

        /**
         * Whether a search ranks by relevance, the query minus the project's centre (design.md § Semantic search);
         * false ranks by the plain cosine.
         */
        @WithDefault("true")
        boolean relevance();
    }

    interface Distill {
        /** How long after a session completes its distillation waits for the summary and the QA verdict. */
        @WithDefault("2m")
        Duration grace();

        /**
         * How long after a session completes (or is judged) its outcome is attributed to the memories it retrieved:
         * usage signals are recorded in the background, so the last search's may land a moment after the answer.
         */
        @WithDefault("10s")
        Duration outcomeDelay();

        /** A distilled draft this similar (cosine) to a memory of the same project and outcome is merged into it. */
        @WithDefault("0.9")
        double mergeSimilarity();

        /** A QA verdict at or above this counts as the session succeeding (outcome signal, distillation). */
        @WithDefault("70")
        int qaSuccessScore();

        /** A QA verdict below this counts as the session failing. Between the two: no outcome signal. */
        @WithDefault("50")
        int qaFailureScore();
    }

    interface Signals {
        /** Signals younger than this stay individual; the daily rollup folds older ones into per-memory counts. */
        @WithDefault("30d")
        Duration keepIndividually();

        @WithDefault("24h")
        Duration rollupEvery();
    }

    interface Context {
        /** The default budget: an injected block stays under 500 tokens (design.md § Context injection). */
        @WithDefault("500")
        int maxTokens();

        @WithDefault("5")
        int maxMemories();
    }

    interface Work {
        @WithDefault("1s")
        Duration pollInterval();

        @WithDefault("5")
        int maxAttempts();

        @WithDefault("5s")
        Duration backoff();

        @WithDefault("16")
        int batchSize();
    }

    interface Embedding {
        /**
         * The model memories are embedded with ({@code all-minilm-l6-v2-q} or {@code bge-small-en-v1.5-q}). Changing
         * it builds the new model's vectors in the background; searches switch once they cover every memory
         * (design.md § Re-embedding). query-service must be given the same value.
         */
        @WithDefault(dev.hindsight.memorymodel.embedding.OnnxEmbedder.MINILM)
        String model();

        /** How often the vector counts are read (which model searches use) and missing vectors are looked for. */
        @WithDefault("10s")
        Duration checkEvery();

        /** How long searches use the new model before the previous model's vectors are deleted. */
        @WithDefault("1m")
        Duration retireAfter();

        /** Memories embedded and published per step of a build. */
        @WithDefault("32")
        int batchSize();
    }
}
