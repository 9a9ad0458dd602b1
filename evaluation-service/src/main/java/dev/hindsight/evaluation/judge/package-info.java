/**
 * The QA judge for debugging traces (seed 003): the trace model and the deterministic rubric that scores a
 * developer's method (hypotheses, evidence, verification, reaction to failures, clarity) rather than their speed.
 */
package dev.hindsight.evaluation.judge;
