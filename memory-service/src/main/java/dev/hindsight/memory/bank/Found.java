package dev.hindsight.memory.bank;

/** A search hit: the memory and its cosine similarity to the query. */
public record Found(MemoryRow memory, double similarity) {
}
