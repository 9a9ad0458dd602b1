/**
 * Operations: read-model rebuilds and retention on demand, and the operations page (generations, embedding models,
 * consumer lag, dead letters).
 */
@FeatureApi({})
package dev.hindsight.query.ops;

import dev.hindsight.platform.FeatureApi;
