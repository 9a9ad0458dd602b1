/**
 * The erasure API (ADR 0028): {@code POST /v1/erasures}, {@code DELETE /v1/sessions/{id}} and
 * {@code GET /v1/erasures/{id}}, under scope {@code erase}. ingest-service resolves what an erasure covers from
 * query-service's read model, destroys the data keys, and publishes the erasure on the log that every read model
 * applies.
 */
@FeatureApi({ErasureRequest.class, ErasureResource.class, Erasures.class})
package dev.hindsight.ingest.erasure;

import dev.hindsight.platform.FeatureApi;
