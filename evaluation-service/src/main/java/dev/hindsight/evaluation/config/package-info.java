/**
 * evaluation-service's configuration.
 */
@FeatureApi({EvaluationConfig.class})
package dev.hindsight.evaluation.config;

import dev.hindsight.platform.FeatureApi;
