/**
 * Publishing to Kafka: acknowledged means durable, a 503 when Kafka cannot take it.
 */
@FeatureApi({EventLog.class, IngestConfig.class})
package dev.hindsight.ingest.publish;

import dev.hindsight.platform.FeatureApi;
