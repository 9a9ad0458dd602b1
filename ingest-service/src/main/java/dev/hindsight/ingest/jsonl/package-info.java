/**
 * The JSONL import of trading logs (design.md § JSONL import).
 */
@FeatureApi({})
package dev.hindsight.ingest.jsonl;

import dev.hindsight.platform.FeatureApi;
