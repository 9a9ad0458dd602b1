package dev.hindsight.memory.evidence;

import dev.hindsight.memory.evidence.CompletedSession.Activity;
import dev.hindsight.memory.evidence.CompletedSession.Step;
import dev.hindsight.memory.evidence.CompletedSession.Turn;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a session shows, read once for the distiller: the task, the agent's thoughts, its actions in order (file
 * edits, commands, tool calls) with what failed, and its last answer. Conversation turns come first, then trace
 * activities (a session normally has only one of the two).
 */
public final class SessionEvidence {

    /** Cues that a thought explains a cause or a decision: the thought worth keeping as the approach. */
    private static final Pattern DIAGNOSIS = Pattern.compile("(?i)(?<![\\p{L}])(?:root cause|because|caused by|"
            + "the (?:issue|problem|bug|cause|fix|solution) (?:is|was)|turns out|the fix|fixed by|so (?:i|we)|"
            + "therefore|which means|that means|the reason|instead of|should use|need to)(?![\\p{L}])");
    /** An exception or error named with its message: the most telling line of an output. */
    private static final Pattern EXCEPTION_LINE = Pattern.compile("\\w*(?:Error|Exception|Failure)\\b:");
    /** Cues that a line reports the failure rather than progress. */
    private static final Pattern STRONG_CUE = Pattern.compile("(?i)error|exception|fatal|panic|traceback|assert|"
            + "denied|not found|refused|cannot|can't|unable|undefined");
    /** Cues that a line is about a failure, such as a test summary ("1 failed, 11 passed"). */
    private static final Pattern WEAK_CUE = Pattern.compile("(?i)fail|expected|timed? ?out");
    private static final Pattern PYTEST_MARKER = Pattern.compile("^\\s*E\\s{2,}");
    private static final Pattern DIFF_FILE = Pattern.compile("(?m)^\\+\\+\\+ b/(\\S+)");

    static final int LABEL_LENGTH = 100;
    static final int ERROR_LENGTH = 160;

    public final String task;
    public final List<String> thoughts = new ArrayList<>();
    public final List<Action> actions = new ArrayList<>();
    public final List<String> userMessages = new ArrayList<>();
    public final List<String> assistantMessages = new ArrayList<>();
    public final List<String> commands = new ArrayList<>();
    public final Set<String> editedFiles = new LinkedHashSet<>();
    public final String finalDiff;

    private SessionEvidence(CompletedSession session) {
        for (Turn turn : session.turns()) {
            String role = turn.role().toLowerCase(Locale.ROOT);
            if (role.equals("user") && !turn.content().isBlank()) {
                userMessages.add(turn.content());
            }
            if (role.equals("assistant") && !turn.content().isBlank()) {
                assistantMessages.add(turn.content());
            }
            for (Step step : turn.steps()) {
                if (step.isTool()) {
                    String name = Texts.isBlank(step.toolName()) ? "tool" : Texts.oneLine(step.toolName());
                    boolean failed = !Texts.isBlank(step.toolError());
                    actions.add(new Action(ActionType.TOOL, Texts.truncate(name, LABEL_LENGTH), failed, null,
                            failed ? Texts.truncate(Texts.oneLine(Texts.firstLine(step.toolError())), ERROR_LENGTH)
                                    : ""));
                } else if (!Texts.isBlank(step.content())) {
                    thoughts.add(step.content());
                }
            }
        }
        for (Activity activity : session.activities()) {
            switch (activity.type().toLowerCase(Locale.ROOT)) {
                case Activity.THOUGHT -> {
                    if (!activity.content().isBlank()) {
                        thoughts.add(activity.content());
                    }
                }
                case Activity.FILE_EDIT -> {
                    String path = Texts.truncate(Texts.oneLine(activity.content()), LABEL_LENGTH);
                    if (!path.isEmpty()) {
                        editedFiles.add(path);
                        actions.add(new Action(ActionType.EDIT, path, false, null, ""));
                    }
                }
                case Activity.COMMAND -> {
                    String command = Texts.truncate(Texts.oneLine(Texts.firstLine(activity.content())), LABEL_LENGTH);
                    if (!command.isEmpty()) {
                        commands.add(activity.content());
                        boolean failed = activity.failedCommand();
                        actions.add(new Action(ActionType.COMMAND, command, failed, activity.exitCode(),
                                failed ? errorLine(activity.output()) : ""));
                    }
                }
                default -> {
                    // An activity type this version does not know: nothing to learn from it.
                }
            }
        }
        finalDiff = session.finalDiff() == null ? "" : session.finalDiff();
        Matcher diffFile = DIFF_FILE.matcher(finalDiff);
        while (diffFile.find()) {
            editedFiles.add(Texts.truncate(diffFile.group(1), LABEL_LENGTH));
        }
        String stated = Texts.isBlank(session.task()) ? (userMessages.isEmpty() ? "" : userMessages.get(0))
                : session.task();
        task = Texts.oneLine(stated);
    }

    public static SessionEvidence of(CompletedSession session) {
        return new SessionEvidence(session);
    }

    /** The thought that best explains what was done: the last one naming a cause or a decision, else the last one. */
    public String approach() {
        for (int i = thoughts.size() - 1; i >= 0; i--) {
            if (DIAGNOSIS.matcher(thoughts.get(i)).find()) {
                return thoughts.get(i);
            }
        }
        return thoughts.isEmpty() ? "" : thoughts.get(thoughts.size() - 1);
    }

    public String lastAnswer() {
        return assistantMessages.isEmpty() ? "" : assistantMessages.get(assistantMessages.size() - 1);
    }

    public List<Action> failures() {
        return actions.stream().filter(Action::failed).toList();
    }

    /** The last command that exited 0 after the last edit (or anywhere, when nothing was edited): the verification. */
    public Action verification() {
        for (int i = actions.size() - 1; i >= 0; i--) {
            Action action = actions.get(i);
            if (action.type() == ActionType.EDIT) {
                return null;
            }
            if (action.type() == ActionType.COMMAND && Integer.valueOf(0).equals(action.exitCode())) {
                return action;
            }
        }
        return null;
    }

    /**
     * Commands that failed again with nothing edited since their previous failure: the "re-ran it unchanged"
     * anti-pattern, with how many times each failed in a row, in order of first repetition.
     */
    public List<Repetition> repeatedFailures() {
        List<Repetition> repetitions = new ArrayList<>();
        Action previous = null;
        int times = 0;
        for (Action action : actions) {
            if (action.type() == ActionType.EDIT) {
                record(repetitions, previous, times);
                previous = null;
                times = 0;
                continue;
            }
            if (action.type() != ActionType.COMMAND) {
                continue;
            }
            if (action.failed() && previous != null && previous.label().equals(action.label())) {
                times++;
                continue;
            }
            record(repetitions, previous, times);
            previous = action.failed() ? action : null;
            times = action.failed() ? 1 : 0;
        }
        record(repetitions, previous, times);
        return repetitions;
    }

    private static void record(List<Repetition> repetitions, Action action, int times) {
        if (action != null && times >= 2) {
            repetitions.add(new Repetition(action.label(), times));
        }
    }

    /**
     * The line of a command's output that says what failed: the last line naming an exception with its message
     * ({@code AssertionError: expected 100, got 90}), else the last with an error cue, else the last with a failure
     * cue (a test summary), else the last line.
     */
    static String errorLine(String output) {
        if (Texts.isBlank(output)) {
            return "";
        }
        String chosen = "";
        int best = -1;
        for (String line : output.split("\\R")) {
            if (line.isBlank()) {
                continue;
            }
            int score = EXCEPTION_LINE.matcher(line).find() ? 3 : STRONG_CUE.matcher(line).find() ? 2
                    : WEAK_CUE.matcher(line).find() ? 1 : 0;
            if (score >= best) {
                best = score;
                chosen = line;
            }
        }
        // pytest marks error lines with a leading "E   "; the marker says nothing.
        return Texts.truncate(Texts.oneLine(PYTEST_MARKER.matcher(chosen).replaceFirst("")), ERROR_LENGTH);
    }

    public enum ActionType { EDIT, COMMAND, TOOL }

    /**
     * One thing the agent did.
     *
     * @param type     edit, command or tool call
     * @param label    the file path, the command's first line or the tool's name (one line, truncated)
     * @param failed   a command with a non-zero exit code, or a tool call with an error
     * @param exitCode a command's exit code; null otherwise or when unknown
     * @param error    for a failure, the line that says why; empty otherwise
     */
    public record Action(ActionType type, String label, boolean failed, Integer exitCode, String error) {
    }

    /** A command that failed {@code times} times in a row with no edit in between. */
    public record Repetition(String command, int times) {
    }
}
