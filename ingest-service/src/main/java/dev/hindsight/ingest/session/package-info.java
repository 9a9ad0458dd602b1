/**
 * Sessions, messages with their thinking steps, positions, activities and completions in.
 */
@FeatureApi({
    AppendMessagesRequest.class,
    SessionDetailsRequests.class,
    SessionEventMapper.class,
    StartSessionRequest.class})
package dev.hindsight.ingest.session;

import dev.hindsight.platform.FeatureApi;
