/**
 * Each tenant's quota of events and bytes per second.
 */
@FeatureApi({TenantQuotas.class})
package dev.hindsight.ingest.quota;

import dev.hindsight.platform.FeatureApi;
