package dev.hindsight.evaluation.judge;

/** The kind of a trace step, one per seed 003 event type: thought_log, file_edit, command_run. */
public enum StepKind {
    THOUGHT,
    EDIT,
    COMMAND
}
