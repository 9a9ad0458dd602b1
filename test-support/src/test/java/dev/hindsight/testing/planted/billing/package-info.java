/** A planted feature package for {@code HouseRulesTest}, breaking each house rule once. */
@FeatureApi({})
package dev.hindsight.testing.planted.billing;

import dev.hindsight.platform.FeatureApi;
