/**
 * evaluation-service: everything judged by a model or a formula (summaries of messages and sessions, the QA judge of
 * debugging traces, the Reality Alignment Scores of shadow decisions and decision comparisons), published as events
 * so replays never ask a model again.
 */
package dev.hindsight.evaluation;
