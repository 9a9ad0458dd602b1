package dev.hindsight.evaluation.judge;

/**
 * Scores a debugging trace synchronously. For deterministic, offline judges; a model-backed judge is asynchronous
 * and has its own interface.
 */
interface TraceJudge {

    /** Stable identifier recorded with every judgement, e.g. {@code rubric.v1}; changes when the scoring changes. */
    String id();

    /** The verdict on one trace; never null. */
    Judgement judge(Trace trace);
}
