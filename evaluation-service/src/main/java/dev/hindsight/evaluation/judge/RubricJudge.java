package dev.hindsight.evaluation.judge;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The deterministic, offline QA judge ({@code rubric.v1}): scores a debugging trace on five method dimensions from
 * cue words and the order of its steps, so every trace gets a reproducible score before (or without) a model judge.
 *
 * <p>The judge values methodology over speed (design.md § Rubric), so no dimension rewards a short trace: a step only
 * ever earns points for what it shows (a hypothesis, a reproduction, a verification, an analysis of a failure, a reason
 * given).
 *
 * <p>Heuristics, each 0–100:
 * <ul>
 * <li><b>hypothesis_formation</b>: 50 when a thought states a hypothesis (suspect, might, maybe, likely, probably,
 * could be, I think, because, …) before the first edit (25 when only after it), plus 50 × the share of changes
 * preceded by a thought since the previous change. Without edits: 100 when a hypothesis was stated, else 0.</li>
 * <li><b>evidence_gathering</b>, before the first edit (the whole trace without edits): 30 for running the code
 * (reproducing), 25 for a read-only diagnostic command (grep, cat, logs, git log/diff/blame) and 10 more for a
 * second different one, 25 for a thought citing an observation (output, error, fails, line 41, …) and 10 more
 * for a second.</li>
 * <li><b>verification_after_edits</b>: 70 × the share of changes followed by a run (test, build, program) before
 * the next change or the end, plus 30 when the last run after the last change exited 0 (10 when its exit code is
 * unknown). Without edits: 0, nothing was verified.</li>
 * <li><b>reaction_to_failures</b>: the mean over failed commands (exit code ≠ 0) of what came next: a thought
 * analysing it 1.0, another thought 0.5, a read-only diagnostic 0.75, a different run 0.5, an edit 0.2, the same
 * command again or nothing 0; minus 10 per identical failing command repeated without an edit in between. No
 * failure among commands with exit codes: 100; commands without any exit code: 50; no commands: 0.</li>
 * <li><b>clarity_of_reasoning</b>: 50 when at least half the thoughts explain why (because, so, therefore, since,
 * …; proportionally less below), 20 × the share of thoughts of a readable length (6–120 words), 30 when there is
 * at least one thought per two actions (proportionally less below). No thoughts: 0.</li>
 * </ul>
 * A change is a run of consecutive edits: editing three files in a row and then testing is one verified change.
 * The overall score is the weighted mean with {@link #WEIGHTS}: evidence and verification weigh most because they
 * are the method; hypotheses next; reactions and clarity least, as they partly echo the others.
 */
public final class RubricJudge implements TraceJudge {

    public static final String ID = "rubric.v1";

    public static final String HYPOTHESIS_FORMATION = "hypothesis_formation";
    public static final String EVIDENCE_GATHERING = "evidence_gathering";
    public static final String VERIFICATION_AFTER_EDITS = "verification_after_edits";
    public static final String REACTION_TO_FAILURES = "reaction_to_failures";
    public static final String CLARITY_OF_REASONING = "clarity_of_reasoning";

    /**
     * Weight of each dimension in the overall score, in percent and in the order dimensions are reported; they sum
     * to 100. Whole percentages keep the overall score exact integer arithmetic, so it never depends on how floating
     * point rounds a sum that ends in .5.
     */
    public static final Map<String, Integer> WEIGHTS = weights();

    /** The rubric's dimensions, in the order every judgement lists them (an LLM judge is held to the same). */
    public static final java.util.List<String> DIMENSIONS = java.util.List.of(HYPOTHESIS_FORMATION, EVIDENCE_GATHERING,
            VERIFICATION_AFTER_EDITS, REACTION_TO_FAILURES, CLARITY_OF_REASONING);

    private static final Pattern HYPOTHESIS = cues(
            "suspect\\w*", "might", "maybe", "likely", "unlikely", "hypothes\\w*", "probabl\\w*", "could be",
            "i think", "because", "perhaps", "possibl\\w*", "seems?", "guess\\w*", "theory", "root cause",
            "caused by", "must be", "my bet", "i wonder");
    private static final Pattern OBSERVATION = cues(
            "see", "saw", "seen", "shows?", "showed", "shown", "output", "errors?", "logs?", "traceback",
            "stack ?trace", "fail\\w*", "returns?", "returned", "got", "expected", "observ\\w*", "reproduc\\w*",
            "confirm\\w*", "assert\\w*", "exception", "line \\d+", "print\\w*", "pass(es|ed)?", "crash\\w*",
            "message", "exit code", "stderr", "stdout", "verified");
    private static final Pattern WHY = cues(
            "because", "since", "so", "therefore", "thus", "hence", "due to", "as a result", "which means",
            "that means", "this means", "so that", "in order to", "otherwise", "given that", "which is why");

    private static final int MIN_READABLE_WORDS = 6;
    private static final int MAX_READABLE_WORDS = 120;

    @Override
    public String id() {
        return ID;
    }

    @Override
    public Judgement judge(Trace trace) {
        Objects.requireNonNull(trace, "trace");
        if (trace.steps().isEmpty()) {
            List<RubricDimension> none = WEIGHTS.keySet().stream()
                    .map(name -> new RubricDimension(name, 0, List.of(), "no events"))
                    .toList();
            return new Judgement(0, none, ID);
        }
        Facts facts = new Facts(trace.steps());
        List<RubricDimension> dimensions = List.of(
                hypothesisFormation(facts),
                evidenceGathering(facts),
                verificationAfterEdits(facts),
                reactionToFailures(facts),
                clarityOfReasoning(facts));
        int weighted = 0;
        for (RubricDimension dimension : dimensions) {
            weighted += WEIGHTS.get(dimension.name()) * dimension.score();
        }
        // Rounded half up: (weighted + 50) / 100.
        return new Judgement((weighted + 50) / 100, dimensions, ID);
    }

    private static RubricDimension hypothesisFormation(Facts f) {
        List<Integer> hypotheses = new ArrayList<>();
        boolean beforeFirstEdit = false;
        for (int i : f.thoughts) {
            if (HYPOTHESIS.matcher(f.lower(i)).find()) {
                hypotheses.add(i);
                beforeFirstEdit |= i < f.firstEdit;
            }
        }
        Evidence evidence = new Evidence(f);
        hypotheses.forEach(evidence::add);
        String stated = hypotheses.isEmpty() ? "no hypothesis stated"
                : plural(hypotheses.size(), "hypothesis thought", "hypothesis thoughts")
                        + (beforeFirstEdit ? ", first before any edit" : ", only after editing");
        if (hypotheses.isEmpty()) {
            // No thought states a hypothesis: the thoughts are what lost the points.
            f.thoughts.forEach(evidence::add);
        }
        if (f.changes.isEmpty()) {
            return new RubricDimension(HYPOTHESIS_FORMATION, hypotheses.isEmpty() ? 0 : 100, evidence.ids(),
                    stated + "; no edits");
        }
        int covered = 0;
        int previousEnd = -1;
        for (Change change : f.changes) {
            if (f.thoughtBetween(previousEnd, change.start)) {
                covered++;
            } else {
                evidence.add(change.start);
            }
            previousEnd = change.end;
        }
        double score = (beforeFirstEdit ? 50 : hypotheses.isEmpty() ? 0 : 25)
                + 50.0 * covered / f.changes.size();
        return new RubricDimension(HYPOTHESIS_FORMATION, clamp(score), evidence.ids(),
                stated + "; " + covered + " of " + plural(f.changes.size(), "change", "changes")
                        + " preceded by a thought");
    }

    private static RubricDimension evidenceGathering(Facts f) {
        Evidence evidence = new Evidence(f);
        boolean reproduced = false;
        Set<String> inspections = new LinkedHashSet<>();
        int observations = 0;
        for (int i = 0; i < f.firstEdit; i++) {
            TraceStep step = f.steps.get(i);
            if (step.kind() == StepKind.COMMAND) {
                CommandKind kind = f.commandKinds[i];
                if (kind == CommandKind.RUN) {
                    reproduced = true;
                    evidence.add(i);
                } else if (kind == CommandKind.INSPECT) {
                    inspections.add(normalise(step.command()));
                    evidence.add(i);
                }
            } else if (step.kind() == StepKind.THOUGHT && OBSERVATION.matcher(f.lower(i)).find()) {
                observations++;
                evidence.add(i);
            }
        }
        double score = (reproduced ? 30 : 0)
                + (inspections.isEmpty() ? 0 : 25) + (inspections.size() >= 2 ? 10 : 0)
                + (observations == 0 ? 0 : 25) + (observations >= 2 ? 10 : 0);
        String where = f.changes.isEmpty() ? "" : " before the first edit";
        List<String> parts = new ArrayList<>();
        if (reproduced) {
            parts.add("ran the code");
        }
        if (!inspections.isEmpty()) {
            parts.add(plural(inspections.size(), "diagnostic command", "diagnostic commands"));
        }
        if (observations > 0) {
            parts.add(plural(observations, "observation", "observations"));
        }
        if (parts.isEmpty()) {
            // Nothing earned: cite what lost the points, the edit made blind or the steps that gathered nothing.
            if (f.changes.isEmpty()) {
                for (int i = 0; i < f.steps.size(); i++) {
                    evidence.add(i);
                }
            } else {
                evidence.add(f.firstEdit);
            }
            return new RubricDimension(EVIDENCE_GATHERING, 0, evidence.ids(), "no evidence gathered" + where);
        }
        return new RubricDimension(EVIDENCE_GATHERING, clamp(score), evidence.ids(), String.join(", ", parts) + where);
    }

    private static RubricDimension verificationAfterEdits(Facts f) {
        if (f.changes.isEmpty()) {
            return new RubricDimension(VERIFICATION_AFTER_EDITS, 0, List.of(), "no edits to verify");
        }
        Evidence evidence = new Evidence(f);
        int verified = 0;
        int lastRun = -1;
        for (int c = 0; c < f.changes.size(); c++) {
            Change change = f.changes.get(c);
            int windowEnd = c + 1 < f.changes.size() ? f.changes.get(c + 1).start : f.steps.size();
            int firstRun = -1;
            for (int i = change.end + 1; i < windowEnd; i++) {
                if (f.commandKinds[i] == CommandKind.RUN) {
                    if (firstRun < 0) {
                        firstRun = i;
                    }
                    lastRun = c == f.changes.size() - 1 ? i : lastRun;
                }
            }
            if (firstRun >= 0) {
                verified++;
                evidence.add(firstRun);
            } else {
                evidence.add(change.end);
            }
        }
        double score = 70.0 * verified / f.changes.size();
        String last;
        if (lastRun < 0) {
            last = "last change not verified";
        } else {
            evidence.add(lastRun);
            TraceStep run = f.steps.get(lastRun);
            if (run.succeeded()) {
                score += 30;
                last = "last change verified with exit 0";
            } else if (run.exitCode() == null) {
                score += 10;
                last = "last change run, exit code unknown";
            } else {
                last = "last run after the last change failed";
            }
        }
        return new RubricDimension(VERIFICATION_AFTER_EDITS, clamp(score), evidence.ids(),
                verified + " of " + plural(f.changes.size(), "change", "changes") + " followed by a run; " + last);
    }

    private static RubricDimension reactionToFailures(Facts f) {
        List<Integer> commands = new ArrayList<>();
        List<Integer> failures = new ArrayList<>();
        for (int i = 0; i < f.steps.size(); i++) {
            if (f.steps.get(i).kind() == StepKind.COMMAND) {
                commands.add(i);
                if (f.steps.get(i).failed()) {
                    failures.add(i);
                }
            }
        }
        if (commands.isEmpty()) {
            return new RubricDimension(REACTION_TO_FAILURES, 0, List.of(), "no commands run");
        }
        Evidence evidence = new Evidence(f);
        if (failures.isEmpty()) {
            commands.forEach(evidence::add);
            boolean anyKnown = commands.stream().anyMatch(i -> f.steps.get(i).exitCode() != null);
            return anyKnown
                    ? new RubricDimension(REACTION_TO_FAILURES, 100, evidence.ids(), "no command failed")
                    : new RubricDimension(REACTION_TO_FAILURES, 50, evidence.ids(), "no exit codes reported");
        }
        double total = 0;
        int analysed = 0;
        int repeats = 0;
        for (int i : failures) {
            evidence.add(i);
            if (i + 1 < f.steps.size()) {
                evidence.add(i + 1);
            }
            double reaction = reaction(f, i);
            total += reaction;
            if (reaction == 1.0) {
                analysed++;
            }
            if (repeatsPreviousFailure(f, i)) {
                repeats++;
            }
        }
        double score = 100.0 * total / failures.size() - 10.0 * repeats;
        String rationale = analysed + " of " + plural(failures.size(), "failure", "failures") + " analysed in a thought"
                + (repeats > 0 ? "; " + plural(repeats, "identical failing re-run", "identical failing re-runs") : "");
        return new RubricDimension(REACTION_TO_FAILURES, clamp(score), evidence.ids(), rationale);
    }

    /** How well the step right after the failed command at {@code i} reacts to it, from 0 to 1. */
    private static double reaction(Facts f, int i) {
        if (i + 1 >= f.steps.size()) {
            return 0; // left failing
        }
        TraceStep next = f.steps.get(i + 1);
        return switch (next.kind()) {
            case THOUGHT -> analyses(f.lower(i + 1)) ? 1.0 : 0.5;
            case EDIT -> 0.2;
            case COMMAND -> {
                if (normalise(next.command()).equals(normalise(f.steps.get(i).command()))) {
                    yield 0.0;
                }
                yield f.commandKinds[i + 1] == CommandKind.INSPECT ? 0.75 : 0.5;
            }
        };
    }

    /** An analysing thought says what it saw, what it now suspects, or why; a bare "try again" does none. */
    private static boolean analyses(String thought) {
        return words(thought) >= 4 && (OBSERVATION.matcher(thought).find() || HYPOTHESIS.matcher(thought).find()
                || WHY.matcher(thought).find());
    }

    /** True when the failed command at {@code i} is the same failing command as the last one, with no edit between. */
    private static boolean repeatsPreviousFailure(Facts f, int i) {
        String command = normalise(f.steps.get(i).command());
        for (int j = i - 1; j >= 0; j--) {
            TraceStep earlier = f.steps.get(j);
            if (earlier.kind() == StepKind.EDIT) {
                return false;
            }
            if (earlier.kind() == StepKind.COMMAND) {
                return earlier.failed() && normalise(earlier.command()).equals(command);
            }
        }
        return false;
    }

    private static RubricDimension clarityOfReasoning(Facts f) {
        int thoughts = f.thoughts.size();
        if (thoughts == 0) {
            return new RubricDimension(CLARITY_OF_REASONING, 0, List.of(), "no thoughts logged");
        }
        Evidence evidence = new Evidence(f);
        int explained = 0;
        int readable = 0;
        for (int i : f.thoughts) {
            String text = f.lower(i);
            int words = words(text);
            boolean isReadable = words >= MIN_READABLE_WORDS && words <= MAX_READABLE_WORDS;
            boolean explains = WHY.matcher(text).find();
            if (explains) {
                explained++;
            }
            if (isReadable) {
                readable++;
            }
            // Cite the thoughts that explain why and the ones too short or too long to read.
            if (explains || !isReadable) {
                evidence.add(i);
            }
        }
        int actions = f.steps.size() - thoughts;
        double explainedShare = Math.min(1.0, explained / Math.ceil(thoughts / 2.0));
        double ratio = actions == 0 ? 1.0 : Math.min(1.0, ((double) thoughts / actions) / 0.5);
        double score = 50 * explainedShare + 20.0 * readable / thoughts + 30 * ratio;
        if (evidence.isEmpty()) {
            f.thoughts.forEach(evidence::add);
        }
        return new RubricDimension(CLARITY_OF_REASONING, clamp(score), evidence.ids(),
                explained + " of " + plural(thoughts, "thought", "thoughts") + " explain why; " + readable
                        + " of readable length; " + thoughts + " thoughts for " + plural(actions, "action", "actions"));
    }

    private static Map<String, Integer> weights() {
        Map<String, Integer> weights = new LinkedHashMap<>();
        weights.put(HYPOTHESIS_FORMATION, 20);
        weights.put(EVIDENCE_GATHERING, 25);
        weights.put(VERIFICATION_AFTER_EDITS, 25);
        weights.put(REACTION_TO_FAILURES, 15);
        weights.put(CLARITY_OF_REASONING, 15);
        return Collections.unmodifiableMap(weights);
    }

    private static Pattern cues(String... cues) {
        return Pattern.compile("\\b(" + String.join("|", cues) + ")\\b");
    }

    private static int clamp(double score) {
        return (int) Math.max(0, Math.min(100, Math.round(score)));
    }

    private static String normalise(String command) {
        return command == null ? "" : command.trim().replaceAll("\\s+", " ");
    }

    private static int words(String text) {
        String trimmed = text.trim();
        return trimmed.isEmpty() ? 0 : trimmed.split("\\s+").length;
    }

    private static String plural(int n, String one, String many) {
        return n + " " + (n == 1 ? one : many);
    }

    /** A run of consecutive edits, from step {@code start} to step {@code end} inclusive. */
    private record Change(int start, int end) {
    }

    /** What every dimension needs to know about the steps, computed once. */
    private static final class Facts {
        final List<TraceStep> steps;
        final List<Integer> thoughts = new ArrayList<>();
        final List<Change> changes = new ArrayList<>();
        final CommandKind[] commandKinds;
        final String[] lowerText;
        /** Index of the first edit, or the number of steps when nothing was edited. */
        final int firstEdit;

        Facts(List<TraceStep> steps) {
            this.steps = steps;
            this.commandKinds = new CommandKind[steps.size()];
            this.lowerText = new String[steps.size()];
            int start = -1;
            for (int i = 0; i < steps.size(); i++) {
                TraceStep step = steps.get(i);
                if (step.kind() == StepKind.THOUGHT) {
                    thoughts.add(i);
                    lowerText[i] = step.text() == null ? "" : step.text().toLowerCase(Locale.ROOT);
                }
                if (step.kind() == StepKind.COMMAND) {
                    commandKinds[i] = CommandKind.of(step.command());
                }
                if (step.kind() == StepKind.EDIT) {
                    if (start < 0) {
                        start = i;
                    }
                } else if (start >= 0) {
                    changes.add(new Change(start, i - 1));
                    start = -1;
                }
            }
            if (start >= 0) {
                changes.add(new Change(start, steps.size() - 1));
            }
            this.firstEdit = changes.isEmpty() ? steps.size() : changes.get(0).start;
        }

        String lower(int i) {
            return lowerText[i] == null ? "" : lowerText[i];
        }

        /** True when a thought lies strictly between steps {@code from} and {@code to}. */
        boolean thoughtBetween(int from, int to) {
            for (int i = from + 1; i < to; i++) {
                if (steps.get(i).kind() == StepKind.THOUGHT) {
                    return true;
                }
            }
            return false;
        }
    }

    /** Event ids cited by a dimension, in trace order, each once. */
    private static final class Evidence {
        private final Facts facts;
        private final Set<Integer> indices = new HashSet<>();

        Evidence(Facts facts) {
            this.facts = facts;
        }

        void add(int index) {
            indices.add(index);
        }

        boolean isEmpty() {
            return indices.isEmpty();
        }

        List<String> ids() {
            return indices.stream().sorted().map(i -> facts.steps.get(i).eventId()).distinct().toList();
        }
    }
}
