/**
 * Reading a request: the body, its validation, who sends it and the event ids it derives.
 */
@FeatureApi({EventIds.class, JsonBody.class, RequestReader.class, SeedEnvelope.class, Sender.class, Timestamps.class})
package dev.hindsight.ingest.request;

import dev.hindsight.platform.FeatureApi;
