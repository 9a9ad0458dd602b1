package dev.hindsight.memory.distill;

import dev.hindsight.memory.evidence.CompletedSession.Activity;
import dev.hindsight.memory.evidence.CompletedSession.Dimension;
import dev.hindsight.memory.evidence.CompletedSession.Judgement;
import dev.hindsight.memory.evidence.CompletedSession.Outcome;
import dev.hindsight.memory.evidence.CompletedSession.Step;
import dev.hindsight.memory.evidence.CompletedSession.Turn;
import dev.hindsight.memory.evidence.CompletedSession;
import dev.hindsight.memory.evidence.SessionEvidence.Action;
import dev.hindsight.memory.evidence.SessionEvidence.ActionType;
import dev.hindsight.memory.evidence.SessionEvidence.Repetition;
import dev.hindsight.memory.evidence.SessionEvidence;
import dev.hindsight.memory.evidence.Tags;
import dev.hindsight.memory.evidence.Texts;
import dev.hindsight.platform.redact.SecretScrubber;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The distiller (design.md § Distillation): turns a completed session into memory drafts, without a model, from what
 * the session recorded. Deterministic: the same session always gives the same drafts.
 *
 * <p>Which drafts:
 * <ul>
 * <li>a <b>success strategy</b> when the outcome is SUCCESS, or UNKNOWN and the judge scored it at least
 * {@value #STRONG_JUDGEMENT}, or UNKNOWN with a <i>verified fix</i> (the last command run after the last file edit
 * passed, exit 0) that the judge, if it judged, did not score below {@value #WEAK_SCORE}: a debugging trace sent whole
 * has no outcome field (design.md § Trace format), and passing tests after the change are the evidence it worked;</li>
 * <li>a <b>failure anti-pattern</b> when the outcome is FAILURE, or UNKNOWN and the judge scored it below
 * {@value #WEAK_SCORE}; its content has a "What went wrong:" section built from the evidence: failed commands with
 * exit code and error line, a command re-run unchanged after failing, tool errors, rubric dimensions below
 * {@value #WEAK_SCORE} with the judge's rationale, and the last attempt before the end;</li>
 * <li>a <b>weakness anti-pattern</b> as well when a successful (or well-judged) session has rubric dimensions below
 * {@value #WEAK_SCORE}: it worked, but the method had a flaw worth not repeating;</li>
 * <li><b>nothing</b> when there is no evidence: no turns and no activities, or an UNKNOWN outcome without a judgement
 * (or with a middling one, {@value #WEAK_SCORE}–{@value #STRONG_JUDGEMENT_MINUS_ONE}), since a guess is not a
 * lesson.</li>
 * </ul>
 * A FAILURE never yields a strategy, whatever the judge says: a good method that did not reach the goal is not
 * something to repeat as is.
 *
 * <p>Shape of a draft: a title of at most {@value MemoryDraft#MAX_TITLE_LENGTH} characters ({@code Strategy: <task>},
 * {@code Anti-pattern: <task>}, {@code Anti-pattern (<weak dimension>): <task>}); a description of one or two
 * sentences, the evaluation service's session summary when there is one; content as {@code Task / Approach / Key
 * steps / Result} or {@code Task / Approach tried / What went wrong / Do instead}; tags as in {@link Tags}.
 *
 * <p>Secrets: the session's text is scrubbed before anything is taken from it, so a title cut to 80 characters
 * cannot keep half a token that the scrubber would no longer recognise, and every draft is scrubbed again on the way
 * out (defence in depth; scrubbing is idempotent).
 */
public final class Distiller {

    /** Judge score from which an UNKNOWN session counts as a success. */
    public static final int STRONG_JUDGEMENT = 70;

    /** Judge score below which an UNKNOWN session counts as a failure, and a dimension as a weakness. */
    public static final int WEAK_SCORE = 50;

    static final int STRONG_JUDGEMENT_MINUS_ONE = STRONG_JUDGEMENT - 1;
    static final int MAX_KEY_STEPS = 8;
    static final int MAX_FAILED_COMMANDS = 3;
    static final int MAX_TOOL_ERRORS = 2;
    static final int MAX_WEAK_DIMENSIONS = 3;
    static final int MAX_ADVICE = 4;
    static final int MAX_FILES = 4;
    static final int TASK_LENGTH = 400;
    static final int APPROACH_LENGTH = 300;
    static final int DESCRIPTION_LENGTH = 300;
    static final int RATIONALE_LENGTH = 200;
    static final int MAX_CODE_LINES = 12;

    /** What to do instead, for each dimension of the rubric judge ({@code rubric.v1}) and of LLM judges held to it. */
    private static final Map<String, String> ADVICE = Map.of(
            "hypothesis_formation", "State a hypothesis about the cause before changing code.",
            "evidence_gathering", "Reproduce the failure and read the logs or the code before editing.",
            "verification_after_edits", "Run the tests after every change, before moving on.",
            "reaction_to_failures", "Read each failure's output and change something before running the same "
                    + "command again.",
            "clarity_of_reasoning", "Write down why each step is taken, so the reasoning can be checked.");

    private final SecretScrubber scrubber;

    /** A distiller with the standard scrubber. */
    public Distiller() {
        this(new SecretScrubber());
    }

    /** A distiller with the given scrubber (the service shares one). */
    public Distiller(SecretScrubber scrubber) {
        this.scrubber = Objects.requireNonNull(scrubber, "scrubber");
    }

    /**
     * The drafts this session yields, in a fixed order (strategy, then weakness or failure anti-pattern); empty when
     * it holds no evidence (see the class comment).
     */
    /** The last command run after the last file edit passed (exit 0): the change was checked and held. */
    static boolean verifiedFix(CompletedSession session) {
        List<CompletedSession.Activity> activities = session.activities();
        int lastEdit = -1;
        for (int i = 0; i < activities.size(); i++) {
            if (CompletedSession.Activity.FILE_EDIT.equals(activities.get(i).type())) {
                lastEdit = i;
            }
        }
        if (lastEdit < 0) {
            return false;
        }
        Integer lastExit = null;
        for (int i = lastEdit + 1; i < activities.size(); i++) {
            if (CompletedSession.Activity.COMMAND.equals(activities.get(i).type())) {
                lastExit = activities.get(i).exitCode();
            }
        }
        return lastExit != null && lastExit == 0;
    }

    public List<MemoryDraft> distill(CompletedSession session) {
        Objects.requireNonNull(session, "session");
        if (session.turns().isEmpty() && session.activities().isEmpty()) {
            return List.of();
        }
        Judgement judgement = session.judgement();
        Outcome outcome = session.outcome();
        boolean success = outcome == Outcome.SUCCESS
                || outcome == Outcome.UNKNOWN && judgement != null && judgement.overallScore() >= STRONG_JUDGEMENT
                || outcome == Outcome.UNKNOWN && verifiedFix(session)
                        && (judgement == null || judgement.overallScore() >= WEAK_SCORE);
        boolean failure = outcome == Outcome.FAILURE
                || outcome == Outcome.UNKNOWN && judgement != null && judgement.overallScore() < WEAK_SCORE;
        if (!success && !failure) {
            return List.of();
        }
        CompletedSession clean = scrubbed(session);
        SessionEvidence evidence = SessionEvidence.of(clean);
        List<String> tags = tags(clean, evidence);
        List<MemoryDraft> drafts = new ArrayList<>();
        if (success) {
            drafts.add(strategy(clean, evidence, tags));
            List<Dimension> weak = weakDimensions(judgement);
            if (!weak.isEmpty()) {
                drafts.add(weakness(clean, evidence, weak, tags));
            }
        }
        if (failure) {
            drafts.add(antiPattern(clean, evidence, tags));
        }
        return drafts.stream().map(this::scrubbed).toList();
    }

    private MemoryDraft strategy(CompletedSession session, SessionEvidence evidence, List<String> tags) {
        StringBuilder content = new StringBuilder();
        content.append("Task: ").append(taskLine(session, evidence)).append('\n');
        String approach = approach(evidence);
        if (!approach.isEmpty()) {
            content.append("Approach: ").append(approach).append('\n');
        }
        List<String> steps = keySteps(evidence.actions);
        if (!steps.isEmpty()) {
            content.append("Key steps:\n");
            for (int i = 0; i < steps.size(); i++) {
                content.append(i + 1).append(". ").append(steps.get(i)).append('\n');
            }
        }
        content.append("Result: ").append(successResult(session, evidence));

        String description;
        if (!Texts.isBlank(session.summary())) {
            description = summaryDescription(session.summary());
        } else {
            Action verification = evidence.verification();
            description = Texts.asSentence(Texts.truncate("A " + kind(session) + " session that "
                    + (session.outcome() == Outcome.SUCCESS ? "succeeded"
                    : session.judgement() == null ? "passed its checks after the last change"
                    : "the judge scored " + session.judgement().overallScore() + "/100")
                    + ": " + headline(session, evidence), DESCRIPTION_LENGTH))
                    + (verification == null ? "" : " Verified with `" + verification.label() + "`.");
        }
        return new MemoryDraft(title("Strategy: ", session, evidence), description, content.toString(),
                MemoryDraft.SUCCESS, tags, session.sessionId());
    }

    private MemoryDraft antiPattern(CompletedSession session, SessionEvidence evidence, List<String> tags) {
        List<String> wrong = whatWentWrong(session, evidence);
        StringBuilder content = new StringBuilder();
        content.append("Task: ").append(taskLine(session, evidence)).append('\n');
        String approach = approach(evidence);
        if (!approach.isEmpty()) {
            content.append("Approach tried: ").append(approach).append('\n');
        }
        content.append("What went wrong:\n");
        wrong.forEach(item -> content.append("- ").append(item).append('\n'));
        content.append("Do instead:\n");
        List<String> advice = advice(session, evidence, weakDimensions(session.judgement()));
        for (int i = 0; i < advice.size(); i++) {
            content.append("- ").append(advice.get(i)).append(i < advice.size() - 1 ? "\n" : "");
        }

        String description;
        if (!Texts.isBlank(session.summary())) {
            description = summaryDescription(session.summary());
        } else {
            description = Texts.asSentence(Texts.truncate("A " + kind(session) + " session that "
                    + (session.outcome() == Outcome.FAILURE ? "failed"
                    : "the judge scored " + session.judgement().overallScore() + "/100")
                    + ": " + headline(session, evidence), DESCRIPTION_LENGTH / 2))
                    + " " + Texts.asSentence(Texts.truncate(wrong.get(0), DESCRIPTION_LENGTH / 2));
        }
        return new MemoryDraft(title("Anti-pattern: ", session, evidence), description, content.toString(),
                MemoryDraft.FAILURE, tags, session.sessionId());
    }

    private MemoryDraft weakness(CompletedSession session, SessionEvidence evidence, List<Dimension> weak,
                                 List<String> tags) {
        StringBuilder content = new StringBuilder();
        content.append("Task: ").append(taskLine(session, evidence)).append('\n');
        content.append("What went wrong:\n");
        weak.forEach(dimension -> content.append("- ").append(judged(dimension)).append('\n'));
        content.append("Do instead:\n");
        for (Dimension dimension : weak) {
            content.append("- ").append(adviceFor(dimension)).append('\n');
        }
        content.append("Result: the ").append(kind(session)).append(" session ")
                .append(session.outcome() == Outcome.SUCCESS ? "still succeeded" : "was still judged well overall")
                .append(session.judgement() == null ? "" : " (judge score " + session.judgement().overallScore()
                        + "/100)")
                .append("; the weakness made it riskier, not impossible.");

        Dimension weakest = weak.get(0);
        String description = Texts.asSentence(Texts.truncate("The session " + (session.outcome() == Outcome.SUCCESS
                ? "succeeded" : "was judged well overall") + ", but the judge scored " + label(weakest) + " "
                + weakest.score() + "/100", DESCRIPTION_LENGTH / 2));
        if (!weakest.rationale().isBlank()) {
            description += " " + Texts.asSentence(Texts.truncate(Texts.sentences(weakest.rationale(), 1),
                    DESCRIPTION_LENGTH / 2));
        }
        return new MemoryDraft(title("Anti-pattern (" + label(weakest) + "): ", session, evidence), description,
                content.toString(), MemoryDraft.FAILURE, tags, session.sessionId());
    }

    /** The evidence lines of "What went wrong:", most specific first; never empty. */
    private List<String> whatWentWrong(CompletedSession session, SessionEvidence evidence) {
        List<String> items = new ArrayList<>();
        List<Action> failedCommands = lastDistinct(evidence.failures().stream()
                .filter(action -> action.type() == ActionType.COMMAND).toList(), MAX_FAILED_COMMANDS);
        for (Action command : failedCommands) {
            items.add("Command `" + command.label() + "` failed (exit " + command.exitCode() + ")"
                    + (command.error().isEmpty() ? "." : ": " + command.error()));
        }
        for (Repetition repetition : evidence.repeatedFailures()) {
            items.add("Re-ran `" + repetition.command() + "` " + repetition.times()
                    + " times in a row without changing anything in between.");
        }
        List<Action> toolErrors = lastDistinct(evidence.failures().stream()
                .filter(action -> action.type() == ActionType.TOOL).toList(), MAX_TOOL_ERRORS);
        for (Action tool : toolErrors) {
            items.add("Tool `" + tool.label() + "` failed: " + tool.error());
        }
        for (Dimension dimension : weakDimensions(session.judgement())) {
            items.add(judged(dimension));
        }
        if (items.isEmpty()) {
            items.add(session.outcome() == Outcome.FAILURE
                    ? "The session was reported as failed; no failing command or tool error was recorded."
                    : "The judge scored the session " + session.judgement().overallScore() + "/100.");
        }
        String last = lastAttempt(evidence);
        if (!last.isEmpty()) {
            items.add("Last attempt before the end: " + last);
        }
        return items;
    }

    /** What to do instead: from repetitions, weak dimensions and tool errors; a general rule when nothing is specific. */
    private List<String> advice(CompletedSession session, SessionEvidence evidence, List<Dimension> weak) {
        Set<String> advice = new LinkedHashSet<>();
        for (Repetition repetition : evidence.repeatedFailures()) {
            advice.add("Read the failure output and change one thing before running `" + repetition.command()
                    + "` again.");
        }
        for (Dimension dimension : weak) {
            // A re-run command already has its own, more specific advice.
            if (!(dimension.name().equalsIgnoreCase("reaction_to_failures") && !evidence.repeatedFailures().isEmpty())) {
                advice.add(adviceFor(dimension));
            }
        }
        for (Action tool : lastDistinct(evidence.failures().stream()
                .filter(action -> action.type() == ActionType.TOOL).toList(), MAX_TOOL_ERRORS)) {
            advice.add("Check `" + tool.label() + "`'s arguments and availability, and handle its errors, before "
                    + "relying on its result.");
        }
        if (advice.isEmpty()) {
            advice.add("Find the cause of the first failure before trying another fix, and verify each change with "
                    + "a test.");
        }
        return advice.stream().limit(MAX_ADVICE).toList();
    }

    private static String adviceFor(Dimension dimension) {
        String known = ADVICE.get(dimension.name().toLowerCase(Locale.ROOT));
        return known != null ? known : "Do not repeat what the judge flagged for " + label(dimension)
                + (dimension.rationale().isBlank() ? "." : ": " + Texts.asSentence(
                Texts.truncate(Texts.sentences(dimension.rationale(), 1), RATIONALE_LENGTH)));
    }

    private static String judged(Dimension dimension) {
        return "Judge: " + label(dimension) + " scored " + dimension.score() + "/100"
                + (dimension.rationale().isBlank() ? "." : ": " + Texts.asSentence(
                Texts.truncate(Texts.sentences(dimension.rationale(), 2), RATIONALE_LENGTH)));
    }

    /** Dimensions below {@link #WEAK_SCORE}, weakest first (ties by name, so the order never depends on the judge's). */
    private static List<Dimension> weakDimensions(Judgement judgement) {
        if (judgement == null) {
            return List.of();
        }
        return judgement.dimensions().stream()
                .filter(dimension -> dimension.score() < WEAK_SCORE)
                .sorted(Comparator.comparingInt(Dimension::score).thenComparing(Dimension::name))
                .limit(MAX_WEAK_DIMENSIONS)
                .toList();
    }

    /** The last {@code max} actions with distinct labels, in the order they happened (their last occurrence). */
    private static List<Action> lastDistinct(List<Action> actions, int max) {
        List<Action> picked = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        for (int i = actions.size() - 1; i >= 0 && picked.size() < max; i--) {
            if (seen.add(actions.get(i).label())) {
                picked.add(0, actions.get(i));
            }
        }
        return picked;
    }

    private static String lastAttempt(SessionEvidence evidence) {
        if (!evidence.actions.isEmpty()) {
            Action last = evidence.actions.get(evidence.actions.size() - 1);
            return switch (last.type()) {
                case EDIT -> "edited `" + last.label() + "`, then the session ended without a passing check.";
                case COMMAND -> "ran `" + last.label() + "`" + (last.exitCode() == null ? "." : " (exit "
                        + last.exitCode() + ").");
                case TOOL -> "called `" + last.label() + "`" + (last.failed() ? ", which failed." : ".");
            };
        }
        String answer = evidence.lastAnswer();
        return answer.isBlank() ? "" : "answered \"" + Texts.truncate(Texts.sentences(answer, 1), RATIONALE_LENGTH)
                + "\"";
    }

    /** Actions as numbered steps: consecutive edits grouped, a command repeated with the same exit code counted. */
    private static List<String> keySteps(List<Action> actions) {
        List<String> steps = new ArrayList<>();
        int i = 0;
        while (i < actions.size()) {
            Action action = actions.get(i);
            if (action.type() == ActionType.EDIT) {
                Set<String> files = new LinkedHashSet<>();
                while (i < actions.size() && actions.get(i).type() == ActionType.EDIT) {
                    files.add(actions.get(i).label());
                    i++;
                }
                steps.add("Edited " + fileList(files));
                continue;
            }
            int times = 1;
            while (i + times < actions.size() && actions.get(i + times).equals(action)) {
                times++;
            }
            String repeat = times > 1 ? " (" + times + "×)" : "";
            steps.add(switch (action.type()) {
                case COMMAND -> "Ran `" + action.label() + "`" + repeat + (action.exitCode() == null ? ""
                        : action.exitCode() == 0 ? ": passed (exit 0)" : ": failed (exit " + action.exitCode() + ")"
                        + (action.error().isEmpty() ? "" : ", " + action.error()));
                case TOOL -> "Called `" + action.label() + "`" + repeat + (action.failed()
                        ? ": failed, " + action.error() : "");
                case EDIT -> throw new IllegalStateException("edits are grouped above");
            });
            i += times;
        }
        if (steps.size() <= MAX_KEY_STEPS) {
            return steps;
        }
        // The beginning says how the work was approached, the end how it was fixed and verified.
        List<String> kept = new ArrayList<>(steps.subList(0, 2));
        kept.add("… " + (steps.size() - (MAX_KEY_STEPS - 1)) + " more steps …");
        kept.addAll(steps.subList(steps.size() - (MAX_KEY_STEPS - 3), steps.size()));
        return kept;
    }

    private static String successResult(CompletedSession session, SessionEvidence evidence) {
        List<String> parts = new ArrayList<>();
        if (!evidence.editedFiles.isEmpty()) {
            parts.add("Changed " + fileList(evidence.editedFiles) + ".");
        }
        Action verification = evidence.verification();
        if (verification != null) {
            parts.add("`" + verification.label() + "` passed.");
        }
        String answer = evidence.lastAnswer();
        String code = "";
        if (!answer.isBlank()) {
            Texts.Answer split = Texts.splitCode(answer, MAX_CODE_LINES);
            if (!split.prose().isEmpty()) {
                parts.add("Answer: " + Texts.asSentence(Texts.truncate(Texts.sentences(split.prose(), 2),
                        APPROACH_LENGTH)));
            }
            code = split.code();
        }
        parts.add(session.outcome() == Outcome.SUCCESS ? "Outcome: success." : "Outcome not reported.");
        if (session.judgement() != null) {
            parts.add("Judge score " + session.judgement().overallScore() + "/100.");
        }
        // The answer's first code block stays a block: for a how-to, the code is the lesson.
        return String.join(" ", parts) + (code.isEmpty() ? "" : "\n" + code);
    }

    private static String approach(SessionEvidence evidence) {
        String thought = evidence.approach();
        if (!thought.isBlank()) {
            return Texts.asSentence(Texts.truncate(Texts.sentences(thought, 2), APPROACH_LENGTH));
        }
        return "";
    }

    private static String fileList(Set<String> files) {
        List<String> quoted = files.stream().limit(MAX_FILES).map(file -> "`" + file + "`").toList();
        String list = String.join(", ", quoted);
        return files.size() > MAX_FILES ? list + " and " + (files.size() - MAX_FILES) + " more" : list;
    }

    private static String taskLine(CompletedSession session, SessionEvidence evidence) {
        String task = evidence.task.isEmpty() ? Texts.sentences(session.summary(), 1) : evidence.task;
        return task.isEmpty() ? "(not recorded)" : Texts.truncate(task, TASK_LENGTH);
    }

    /** The task in a few words: its first sentence, else the summary's, else the session's kind and id. */
    private static String headline(CompletedSession session, SessionEvidence evidence) {
        String headline = Texts.sentences(evidence.task, 1);
        if (headline.isEmpty()) {
            headline = Texts.sentences(session.summary(), 1);
        }
        if (headline.isEmpty()) {
            headline = kind(session) + " session " + session.sessionId();
        }
        return Texts.stripTrailingPunctuation(headline.endsWith(".") ? headline.substring(0, headline.length() - 1)
                : headline);
    }

    private static String title(String prefix, CompletedSession session, SessionEvidence evidence) {
        return Texts.truncate(prefix + headline(session, evidence), MemoryDraft.MAX_TITLE_LENGTH);
    }

    private static String summaryDescription(String summary) {
        return Texts.asSentence(Texts.truncate(Texts.sentences(summary, 2), DESCRIPTION_LENGTH));
    }

    private static String kind(CompletedSession session) {
        return Tags.slug(session.kind());
    }

    private static String label(Dimension dimension) {
        return Texts.oneLine(dimension.name().replace('_', ' ')).toLowerCase(Locale.ROOT);
    }

    private static List<String> tags(CompletedSession session, SessionEvidence evidence) {
        List<String> pathsAndCommands = new ArrayList<>(evidence.editedFiles);
        pathsAndCommands.addAll(evidence.commands);
        List<String> messages = new ArrayList<>(evidence.userMessages);
        messages.addAll(evidence.assistantMessages);
        if (session.summary() != null) {
            messages.add(session.summary());
        }
        List<String> prose = new ArrayList<>();
        prose.add(evidence.task);
        if (session.summary() != null) {
            prose.add(session.summary());
        }
        prose.addAll(evidence.userMessages.stream().skip(evidence.task.isEmpty() ? 0 : 1).toList());
        prose.addAll(evidence.thoughts);
        evidence.failures().forEach(failure -> prose.add(failure.error()));
        return Tags.of(session.kind(), session.model(),
                new Tags.CodeEvidence(pathsAndCommands, List.of(evidence.finalDiff), messages), prose);
    }

    /** The session with every text scrubbed: nothing below can keep a secret, not even half of one. */
    private CompletedSession scrubbed(CompletedSession session) {
        List<Turn> turns = session.turns().stream().map(turn -> new Turn(turn.index(), turn.role(),
                scrubber.scrub(turn.content()), turn.steps().stream().map(step -> new Step(step.order(), step.type(),
                scrubber.scrub(step.content()), scrubber.scrub(step.toolName()), scrubber.scrub(step.toolResult()),
                scrubber.scrub(step.toolError()))).toList())).toList();
        List<Activity> activities = session.activities().stream().map(activity -> new Activity(activity.type(),
                scrubber.scrub(activity.content()), activity.exitCode(), scrubber.scrub(activity.output()))).toList();
        Judgement judgement = session.judgement() == null ? null : new Judgement(session.judgement().overallScore(),
                session.judgement().dimensions().stream().map(dimension -> new Dimension(dimension.name(),
                        dimension.score(), scrubber.scrub(dimension.rationale()))).toList());
        return new CompletedSession(session.sessionId(), session.projectId(), session.kind(),
                scrubber.scrub(session.model()), scrubber.scrub(session.task()), turns, activities, session.outcome(),
                scrubber.scrub(session.finalDiff()), scrubber.scrub(session.summary()), judgement,
                session.completedAt());
    }

    private MemoryDraft scrubbed(MemoryDraft draft) {
        String title = scrubber.scrub(draft.title());
        return new MemoryDraft(Texts.truncate(title, MemoryDraft.MAX_TITLE_LENGTH), scrubber.scrub(draft.description()),
                scrubber.scrub(draft.content()), draft.outcome(),
                draft.tags().stream().map(scrubber::scrub).toList(), draft.sourceSessionId());
    }
}
