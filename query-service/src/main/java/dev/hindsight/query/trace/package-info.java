/**
 * Debugging traces read back in their upload format, with their QA results.
 */
@FeatureApi({})
package dev.hindsight.query.trace;

import dev.hindsight.platform.FeatureApi;
