/**
 * Summaries and QA verdicts as jobs: which model writes them, the worker that runs them, their events, and their
 * erasure with their sessions.
 */
@FeatureApi({InsightErasure.class, InsightEvents.class, InsightJob.class, InsightModels.class, InsightWorker.class,
    Summarizer.class})
package dev.hindsight.evaluation.insight;

import dev.hindsight.platform.FeatureApi;
