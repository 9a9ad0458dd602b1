/**
 * The live stream: server-sent events of what the projections just committed, for dashboards.
 */
@FeatureApi({})
package dev.hindsight.query.live;

import dev.hindsight.platform.FeatureApi;
