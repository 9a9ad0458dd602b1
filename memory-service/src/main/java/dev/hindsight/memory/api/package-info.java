/**
 * The ReasoningBank over REST: memories, search, feedback, context and the embedding admin.
 */
@FeatureApi({MemoryJson.class, Requests.class})
package dev.hindsight.memory.api;

import dev.hindsight.platform.FeatureApi;
