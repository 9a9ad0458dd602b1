/**
 * The decision audit's wiring: decision sets and signals joined in the database, scored when due and published
 * through the outbox, and erased with their sessions and messages.
 */
@FeatureApi({AuditErasure.class})
package dev.hindsight.evaluation.audit;

import dev.hindsight.platform.FeatureApi;
