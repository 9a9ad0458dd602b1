/**
 * Mixed batches of events in one request, each item answered on its own.
 */
@FeatureApi({})
package dev.hindsight.ingest.batch;

import dev.hindsight.platform.FeatureApi;
