package dev.hindsight.platform.events;

import dev.hindsight.events.reasoning.ActivityRecorded;
import dev.hindsight.events.reasoning.CommandRun;
import dev.hindsight.events.reasoning.FileEdit;
import dev.hindsight.events.reasoning.ThoughtLog;

/**
 * One event of a debugging trace (design.md § Events) as flat fields, whichever of its three types the
 * {@code activity} union of {@link ActivityRecorded} holds: what every consumer that keeps activities reads from it.
 * Fields another type does not have are null.
 *
 * @param type the trace's own name of the type: {@value #THOUGHT_LOG}, {@value #FILE_EDIT} or {@value #COMMAND_RUN}
 */
public record TraceActivity(String type, String thoughtText, String filePath, String contentDiff, String commandText,
        String workingDirectory, Integer exitCode, String stdout, String stderr) {

    public static final String THOUGHT_LOG = "thought_log";
    public static final String FILE_EDIT = "file_edit";
    public static final String COMMAND_RUN = "command_run";

    /** The activity {@code recorded} carries. */
    public static TraceActivity of(ActivityRecorded recorded) {
        Object body = recorded.getActivity();
        if (body instanceof ThoughtLog thought) {
            return new TraceActivity(THOUGHT_LOG, thought.getThoughtText(), null, null, null, null, null, null, null);
        }
        if (body instanceof FileEdit edit) {
            return new TraceActivity(FILE_EDIT, null, edit.getFilePath(), edit.getContentDiff(), null, null, null, null,
                    null);
        }
        if (body instanceof CommandRun command) {
            return new TraceActivity(COMMAND_RUN, null, null, null, command.getCommandText(),
                    command.getWorkingDirectory(), command.getExitCode(), command.getStdout(), command.getStderr());
        }
        throw new IllegalArgumentException("unknown activity " + body.getClass().getName());
    }
}
