/**
 * Erasure in the read models (ADR 0028): what an erasure covers, resolved for ingest-service from the current
 * generation ({@link ErasureScopeResource}), and every erasure of the log applied to every generation, once, by
 * each feature's {@link dev.hindsight.query.readmodel.Erasable} ({@link ReadModelErasures}).
 */
package dev.hindsight.query.erasure;
