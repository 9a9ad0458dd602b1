/**
 * OpenTelemetry in: OTLP spans (protobuf and JSON) published as they were exported (ADR 0012).
 */
@FeatureApi({})
package dev.hindsight.ingest.otlp;

import dev.hindsight.platform.FeatureApi;
