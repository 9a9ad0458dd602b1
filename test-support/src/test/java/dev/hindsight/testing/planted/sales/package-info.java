/** A planted feature package for {@code HouseRulesTest}: it offers {@link Orders} and keeps {@link Ledgers}. */
@FeatureApi(Orders.class)
package dev.hindsight.testing.planted.sales;

import dev.hindsight.platform.FeatureApi;
