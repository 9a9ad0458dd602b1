/**
 * The decision audit's wiring: decision sets and signals joined in the database, scored when due and published
 * through the outbox.
 */
@FeatureApi({})
package dev.hindsight.evaluation.audit;

import dev.hindsight.platform.FeatureApi;
