/**
 * The trading sessions' read of design.md § The /reasoning query.
 */
@FeatureApi({})
package dev.hindsight.query.reasoning;

import dev.hindsight.platform.FeatureApi;
