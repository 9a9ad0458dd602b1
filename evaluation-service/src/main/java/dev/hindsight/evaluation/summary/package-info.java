/**
 * Summaries of reasoning (design.md § Summaries): 1–2 sentence summaries of single assistant messages and of whole
 * sessions, with a deterministic extractive summarizer that works offline and backs up the model-written ones.
 */
@FeatureApi({ExtractiveSummarizer.class, SessionDigest.class})
package dev.hindsight.evaluation.summary;

import dev.hindsight.platform.FeatureApi;
