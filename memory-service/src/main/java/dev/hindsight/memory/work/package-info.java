/**
 * The jobs: distillation, outcome signals and the signal rollup.
 */
@FeatureApi({MemoryWorker.class})
package dev.hindsight.memory.work;

import dev.hindsight.platform.FeatureApi;
