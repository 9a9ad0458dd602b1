/**
 * The tenant's API keys issued and revoked at run time, published on hindsight.keys.v1.
 */
@FeatureApi({})
package dev.hindsight.ingest.keys;

import dev.hindsight.platform.FeatureApi;
