/**
 * evaluation-service: everything judged by a model or a formula (seed 000 summaries, seed 003 QA judge, seed 002
 * shadow Reality Alignment Scores and decision comparisons), published as events so replays never ask a model again.
 */
package dev.hindsight.evaluation;
