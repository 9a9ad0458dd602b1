/**
 * What the distiller needs of each session, kept from hindsight.reasoning.v1 and hindsight.insights.v1.
 */
@FeatureApi({})
package dev.hindsight.memory.projection;

import dev.hindsight.platform.FeatureApi;
