package dev.hindsight.memory.bank;

/**
 * A search hit: the memory, its cosine similarity to the query, and whether it is shown on probation (a distilled
 * memory still below the minimum confidence, design.md § Semantic search).
 */
public record Found(MemoryRow memory, double similarity, boolean probation) {
}
