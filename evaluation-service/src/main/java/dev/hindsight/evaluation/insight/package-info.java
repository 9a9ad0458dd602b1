/**
 * Summaries and QA verdicts as jobs: which model writes them, the worker that runs them, their events.
 */
@FeatureApi({InsightEvents.class, InsightJob.class, InsightModels.class, InsightWorker.class, Summarizer.class})
package dev.hindsight.evaluation.insight;

import dev.hindsight.platform.FeatureApi;
