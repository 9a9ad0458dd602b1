/**
 * The tenant's data keys (ADR 0027) kept usable across a key-encryption-key rotation: re-wrapped under the current
 * version on request.
 */
@FeatureApi({})
package dev.hindsight.ingest.datakeys;

import dev.hindsight.platform.FeatureApi;
