/**
 * The ReasoningBank's memories as the console reads them: their projection, queries, search, retention and pages.
 */
@FeatureApi({MemoryVectors.class})
package dev.hindsight.query.memory;

import dev.hindsight.platform.FeatureApi;
