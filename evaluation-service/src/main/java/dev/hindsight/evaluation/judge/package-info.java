/**
 * The QA judge for debugging traces (design.md § Rubric): the trace model and the deterministic rubric that scores a
 * developer's method (hypotheses, evidence, verification, reaction to failures, clarity) rather than their speed.
 */
@FeatureApi({Judgement.class, RubricDimension.class, RubricJudge.class, StepKind.class, Trace.class, TraceStep.class})
package dev.hindsight.evaluation.judge;

import dev.hindsight.platform.FeatureApi;
