/**
 * The message-conflict check: asks query-service whether a message index already holds a different message (ADR
 * 0005).
 */
@FeatureApi({MessageConflicts.class})
package dev.hindsight.ingest.conflict;

import dev.hindsight.platform.FeatureApi;
