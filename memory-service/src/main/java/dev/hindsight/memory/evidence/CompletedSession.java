package dev.hindsight.memory.evidence;

import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * Everything the distiller reads about one finished unit of agent work, assembled by the memory service from the
 * reasoning topic (session started, messages, activities, session completed) and the insights topic (session summary,
 * trace judgement). Plain data: no event or entity type leaks in here.
 *
 * <p>Lists are copied and never null; turns are ordered by index and steps by order, so the distiller's output does
 * not depend on the order rows came back from a database.
 *
 * @param sessionId   the session's id (the reasoning topic's key); becomes each draft's source
 * @param projectId   the project whose ReasoningBank receives the drafts
 * @param kind        {@code trading}, {@code chat} or {@code debug} (design.md § Model-days); {@code unknown} when
 *                    its start was never recorded
 * @param model       the agent's model, e.g. {@code gpt-4o}; null when unknown
 * @param task        what the session set out to do: a trace's {@code task_description}, or the first user message;
 *                    null when unknown (the distiller then falls back to the first user turn)
 * @param turns       the conversation, for trading and chat sessions
 * @param activities  the debugging trace's events, for debug sessions
 * @param outcome     how the session ended; null reads as {@link Outcome#UNKNOWN}
 * @param finalDiff   the trace's final code diff; null when none
 * @param summary     the evaluation service's session summary; null when not (yet) summarised
 * @param judgement   the QA judge's verdict; null when not judged
 * @param completedAt when the session completed
 */
public record CompletedSession(String sessionId, String projectId, String kind, String model, String task,
                               List<Turn> turns, List<Activity> activities, Outcome outcome, String finalDiff,
                               String summary, Judgement judgement, Instant completedAt) {

    public CompletedSession {
        requireText(sessionId, "sessionId");
        requireText(projectId, "projectId");
        requireText(kind, "kind");
        Objects.requireNonNull(completedAt, "completedAt");
        turns = turns == null ? List.of()
                : turns.stream().map(Objects::requireNonNull).sorted(Comparator.comparingInt(Turn::index)).toList();
        activities = activities == null ? List.of() : List.copyOf(activities);
        outcome = outcome == null ? Outcome.UNKNOWN : outcome;
    }

    /** How a session ended, as its producer reported it (the {@code SessionCompleted} event). */
    public enum Outcome {
        /** The goal was reached: a candidate for a success strategy. */
        SUCCESS,
        /** The goal was not reached: a candidate for an anti-pattern. */
        FAILURE,
        /** Not reported: only the judge's verdict can say which way it went. */
        UNKNOWN
    }

    /**
     * One message of a conversation (design.md § Messages).
     *
     * @param index   position in the conversation, from 0
     * @param role    {@code user}, {@code assistant}, {@code tool} or {@code system}
     * @param content the message text; null reads as empty
     * @param steps   the assistant's thinking steps in their exact order (design.md § Thinking steps); empty otherwise
     */
    public record Turn(int index, String role, String content, List<Step> steps) {

        public Turn {
            role = role == null ? "" : role;
            content = content == null ? "" : content;
            steps = steps == null ? List.of()
                    : steps.stream().map(Objects::requireNonNull).sorted(Comparator.comparingInt(Step::order)).toList();
        }
    }

    /**
     * One thinking step of an assistant message (design.md § Thinking steps): a reasoning block or a tool call.
     *
     * @param order      position within the message, from 0
     * @param type       {@code reasoning} or {@code tool}
     * @param content    the reasoning text; null for tool steps
     * @param toolName   the tool's name; null for reasoning steps
     * @param toolResult what the tool returned; null when nothing
     * @param toolError  why the tool failed; null when it did not
     */
    public record Step(int order, String type, String content, String toolName, String toolResult, String toolError) {

        public Step {
            type = type == null ? "" : type;
        }

        /** Whether this is a tool call rather than a reasoning block. */
        public boolean isTool() {
            return "tool".equalsIgnoreCase(type) || (toolName != null && !toolName.isBlank());
        }
    }

    /**
     * One event of a debugging trace (design.md § Events).
     *
     * @param type     {@code thought_log}, {@code file_edit} or {@code command_run}
     * @param content  the thought's text, the edited file's path, or the command line; null reads as empty
     * @param exitCode the command's exit code; null when not a command or not reported
     * @param output   the command's output (stdout and stderr); null when none
     */
    public record Activity(String type, String content, Integer exitCode, String output) {

        /** {@code thought_log} */
        public static final String THOUGHT = "thought_log";
        /** {@code file_edit} */
        public static final String FILE_EDIT = "file_edit";
        /** {@code command_run} */
        public static final String COMMAND = "command_run";

        public Activity {
            type = type == null ? "" : type;
            content = content == null ? "" : content;
        }

        /** A thought, a file edit or a command: shorthands for tests and mapping code. */
        public static Activity thought(String text) {
            return new Activity(THOUGHT, text, null, null);
        }

        /** A file edit of {@code path}. */
        public static Activity edit(String path) {
            return new Activity(FILE_EDIT, path, null, null);
        }

        /** A command run with its exit code and output. */
        public static Activity command(String commandLine, Integer exitCode, String output) {
            return new Activity(COMMAND, commandLine, exitCode, output);
        }

        /** Whether this is a command that reported a non-zero exit code. */
        public boolean failedCommand() {
            return COMMAND.equalsIgnoreCase(type) && exitCode != null && exitCode != 0;
        }
    }

    /**
     * The QA judge's verdict on a session (design.md § Rubric, 0–100).
     *
     * @param overallScore 0–100
     * @param dimensions   the rubric dimensions, in the judge's order
     */
    public record Judgement(int overallScore, List<Dimension> dimensions) {

        public Judgement {
            requireScore(overallScore, "overallScore");
            dimensions = dimensions == null ? List.of() : List.copyOf(dimensions);
        }
    }

    /**
     * One rubric dimension of a judgement.
     *
     * @param name      e.g. {@code verification_after_edits}
     * @param score     0–100
     * @param rationale the judge's one-line why; null reads as empty
     */
    public record Dimension(String name, int score, String rationale) {

        public Dimension {
            requireText(name, "name");
            requireScore(score, "score");
            rationale = rationale == null ? "" : rationale;
        }
    }

    private static void requireText(String value, String name) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(name + " must not be blank");
        }
    }

    private static void requireScore(int score, String name) {
        if (score < 0 || score > 100) {
            throw new IllegalArgumentException(name + " must be within 0–100, was " + score);
        }
    }
}
