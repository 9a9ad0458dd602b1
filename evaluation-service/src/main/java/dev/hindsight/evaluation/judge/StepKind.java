package dev.hindsight.evaluation.judge;

/** The kind of a trace step, one per trace event type (design.md § Events): thought_log, file_edit, command_run. */
public enum StepKind {
    THOUGHT,
    EDIT,
    COMMAND
}
