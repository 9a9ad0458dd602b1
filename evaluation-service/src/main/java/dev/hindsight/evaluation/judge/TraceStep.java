package dev.hindsight.evaluation.judge;

import java.time.Instant;
import java.util.Objects;

/**
 * One event of a debugging trace. Only the fields of its kind are meaningful: {@code text} for a thought,
 * {@code filePath} and {@code diff} for an edit, {@code command}, {@code exitCode}, {@code stdout}, {@code stderr}
 * for a command; the others are null. A command's exit code may be unknown (null).
 */
public record TraceStep(
        String eventId,
        int sequence,
        Instant at,
        StepKind kind,
        String text,
        String filePath,
        String diff,
        String command,
        Integer exitCode,
        String stdout,
        String stderr) {

    public TraceStep {
        // The judge cites steps by id, so a step without one could not be cited.
        Objects.requireNonNull(eventId, "eventId");
        Objects.requireNonNull(kind, "kind");
    }

    /** A logged thought ({@code thought_log}). */
    public static TraceStep thought(String eventId, int sequence, Instant at, String text) {
        return new TraceStep(eventId, sequence, at, StepKind.THOUGHT, text, null, null, null, null, null, null);
    }

    /** A file edit ({@code file_edit}). */
    public static TraceStep edit(String eventId, int sequence, Instant at, String filePath, String diff) {
        return new TraceStep(eventId, sequence, at, StepKind.EDIT, null, filePath, diff, null, null, null, null);
    }

    /** A command run ({@code command_run}); {@code exitCode} null when the capture did not record it. */
    public static TraceStep command(String eventId, int sequence, Instant at, String command, Integer exitCode,
            String stdout, String stderr) {
        return new TraceStep(eventId, sequence, at, StepKind.COMMAND, null, null, null, command, exitCode, stdout,
                stderr);
    }

    /** True for a command that reported a non-zero exit code; an unknown exit code is not a failure. */
    public boolean failed() {
        return kind == StepKind.COMMAND && exitCode != null && exitCode != 0;
    }

    /** True for a command that reported exit code 0. */
    public boolean succeeded() {
        return kind == StepKind.COMMAND && exitCode != null && exitCode == 0;
    }
}
