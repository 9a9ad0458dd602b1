/**
 * Debugging traces uploaded whole, in one Kafka transaction (design.md § Trace format).
 */
@FeatureApi({})
package dev.hindsight.ingest.trace;

import dev.hindsight.platform.FeatureApi;
