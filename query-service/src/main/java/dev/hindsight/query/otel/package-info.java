/**
 * Sessions assembled from OpenTelemetry spans: the spans kept as exported, mapped to their conversation and
 * assembled (ADR 0012).
 */
@FeatureApi({})
package dev.hindsight.query.otel;

import dev.hindsight.platform.FeatureApi;
