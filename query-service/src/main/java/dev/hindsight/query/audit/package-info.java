/**
 * Decision audit: decision sets, behaviour signals, shadow evaluations and comparisons (their projections, the
 * queries of design.md § Queries and leaderboard, the versions leaderboard) and their console pages.
 */
@FeatureApi({})
package dev.hindsight.query.audit;

import dev.hindsight.platform.FeatureApi;
