/**
 * Erasure (ADR 0028): every erasure of the erasure log applied to evaluation-service's database once, each table
 * deleted from by the package that keeps it ({@link EvaluationErasures}).
 */
@FeatureApi({})
package dev.hindsight.evaluation.erasure;

import dev.hindsight.platform.FeatureApi;
