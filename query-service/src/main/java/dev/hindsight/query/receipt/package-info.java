/**
 * Receipts: whether an acknowledged event is in the read models yet.
 */
@FeatureApi({})
package dev.hindsight.query.receipt;

import dev.hindsight.platform.FeatureApi;
