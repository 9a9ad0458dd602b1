package dev.hindsight.memory.search;

import java.util.UUID;

/** A memory found near a query vector, and its cosine similarity to it (1 = same direction). */
public record Neighbour(UUID memoryId, double similarity) {
}
