/**
 * memory-service's configuration.
 */
@FeatureApi({MemoryConfig.class})
package dev.hindsight.memory.config;

import dev.hindsight.platform.FeatureApi;
