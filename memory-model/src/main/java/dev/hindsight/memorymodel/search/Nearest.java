package dev.hindsight.memorymodel.search;

import java.util.List;

/**
 * What a search found: the project's nearest neighbours to the query, and the project's centre they were found beyond
 * ({@link SearchRule#relevanceQuery}), which ranking them by hubness measures beyond too (null: the project has none).
 */
public record Nearest(SearchRule.Centre centre, List<Neighbour> neighbours) {
}
