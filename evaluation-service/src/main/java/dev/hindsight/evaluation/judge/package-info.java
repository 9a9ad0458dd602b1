/**
 * The QA judge for debugging traces (design.md § Rubric): the trace model and the deterministic rubric that scores a
 * developer's method (hypotheses, evidence, verification, reaction to failures, clarity) rather than their speed.
 */
package dev.hindsight.evaluation.judge;
