/**
 * The plumbing every read model shares: generations and their rebuild from offset zero, the ledgered batch
 * projection, the change feed, the read cache, retention, and what each feature erases (ADR 0028).
 */
@FeatureApi({
    Backfill.class,
    Change.class,
    ChangeFeed.class,
    Erasable.class,
    Expiry.class,
    Generations.class,
    Json.class,
    ReadCache.class,
    ReadModel.class,
    ReadModelProjection.class,
    Rendered.class,
    Retention.class,
    Times.class})
package dev.hindsight.query.readmodel;

import dev.hindsight.platform.FeatureApi;
