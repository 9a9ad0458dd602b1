package dev.hindsight.evaluation.judge;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Builds test traces step by step; the n-th step (from 1) gets event id {@code e<n>}. */
final class Traces {

    private static final Instant START = Instant.parse("2025-10-29T16:00:00Z");

    private final List<TraceStep> steps = new ArrayList<>();

    static Traces trace() {
        return new Traces();
    }

    Traces thought(String text) {
        steps.add(TraceStep.thought(nextId(), steps.size(), nextAt(), text));
        return this;
    }

    Traces edit(String filePath) {
        steps.add(TraceStep.edit(nextId(), steps.size(), nextAt(), filePath, "-old\n+new"));
        return this;
    }

    Traces run(String command, Integer exitCode) {
        String stderr = exitCode != null && exitCode != 0 ? "AssertionError" : "";
        steps.add(TraceStep.command(nextId(), steps.size(), nextAt(), command, exitCode, "", stderr));
        return this;
    }

    Trace build() {
        return new Trace("session-1", "CSV export drops the last row", steps, "");
    }

    private String nextId() {
        return "e" + (steps.size() + 1);
    }

    private Instant nextAt() {
        return START.plusSeconds(30L * steps.size());
    }

    /** Hypothesis, reproduction, reading the code, one edit, a passing test run, a reflection. */
    static Trace methodical() {
        return trace()
                .thought("The export drops the last row; I suspect the split on newline discards the final element"
                        + " because the file has no trailing newline.")
                .run("pytest tests/test_csv_export.py -k last_row", 1)
                .thought("The test fails as expected: it got 2 rows instead of 3, which confirms the last row is lost.")
                .run("grep -n split export/csv.py", 0)
                .run("cat export/csv.py", 0)
                .thought("Line 41 slices off the last element with [:-1], so the final row disappears when there is"
                        + " no trailing newline.")
                .edit("export/csv.py")
                .run("pytest tests/test_csv_export.py", 0)
                .thought("All 4 tests pass now, so the fix handles files with and without a trailing newline.")
                .build();
    }

    /** Edit first, re-run the same failing test, edit twice without a thought, a bare "try again". */
    static Trace flailing() {
        return trace()
                .edit("export/csv.py")
                .run("pytest tests/test_csv_export.py", 1)
                .run("pytest tests/test_csv_export.py", 1)
                .edit("export/csv.py")
                .edit("export/reader.py")
                .run("pytest tests/test_csv_export.py", 1)
                .thought("hmm, try again")
                .edit("export/csv.py")
                .run("pytest tests/test_csv_export.py", 0)
                .build();
    }
}
