/**
 * What summaries and the QA judge need of each session, kept from hindsight.reasoning.v1, and its erasure.
 */
@FeatureApi({SessionErasure.class})
package dev.hindsight.evaluation.session;

import dev.hindsight.platform.FeatureApi;
