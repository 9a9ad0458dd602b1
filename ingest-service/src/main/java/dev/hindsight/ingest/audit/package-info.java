/**
 * Decision sets and behaviour signals in (design.md § Decision audit and shadow evaluation): their requests,
 * validation and events.
 */
@FeatureApi({AuditEvents.class})
package dev.hindsight.ingest.audit;

import dev.hindsight.platform.FeatureApi;
