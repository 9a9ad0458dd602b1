package dev.hindsight.memory.distill;

import static dev.hindsight.memory.distill.Sessions.COMPLETED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hindsight.memory.evidence.CompletedSession.Activity;
import dev.hindsight.memory.evidence.CompletedSession.Dimension;
import dev.hindsight.memory.evidence.CompletedSession.Judgement;
import dev.hindsight.memory.evidence.CompletedSession.Outcome;
import dev.hindsight.memory.evidence.CompletedSession.Step;
import dev.hindsight.memory.evidence.CompletedSession.Turn;
import dev.hindsight.memory.evidence.CompletedSession;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Given a completed session, then the drafts the distiller proposes. */
class DistillerTest {

    private final Distiller distiller = new Distiller();

    @Test
    void seed_003_a_fixed_bug_becomes_one_success_strategy() {
        List<MemoryDraft> drafts = distiller.distill(Sessions.debugSuccess());

        assertThat(drafts).containsExactly(new MemoryDraft(
                "Strategy: Login endpoint returns 500 when the password contains a non-ASCII…",
                "A debug session that succeeded: Login endpoint returns 500 when the password contains a non-ASCII "
                        + "character. Verified with `pytest tests/test_login.py`.",
                """
                Task: Login endpoint returns 500 when the password contains a non-ASCII character. Users with an é \
                in their password cannot sign in since the 2.3 release.
                Approach: Line 12 encodes with ascii, so any non-ASCII password raises. The fix is to encode as \
                utf-8 because bcrypt takes bytes.
                Key steps:
                1. Ran `pytest tests/test_login.py -k unicode`: failed (exit 1), UnicodeEncodeError: 'ascii' codec \
                can't encode character '\\xe9' in position 3: ordinal not in range(128)
                2. Ran `grep -n encode app/auth/hashing.py`: passed (exit 0)
                3. Edited `app/auth/hashing.py`
                4. Ran `pytest tests/test_login.py`: passed (exit 0)
                Result: Changed `app/auth/hashing.py`. `pytest tests/test_login.py` passed. Outcome: success. Judge \
                score 84/100.""",
                "success",
                List.of("kind:debug", "language:python", "problem:auth", "problem:bug", "problem:data"),
                "trace-7f1c"));
    }

    @Test
    void seed_003_a_failed_session_becomes_an_anti_pattern_that_says_what_went_wrong() {
        List<MemoryDraft> drafts = distiller.distill(Sessions.debugFailure());

        assertThat(drafts).hasSize(1);
        MemoryDraft draft = drafts.get(0);
        assertThat(draft.outcome()).isEqualTo("failure");
        assertThat(draft.title())
                .isEqualTo("Anti-pattern: Fix the flaky test_transfer_updates_both_balances in the payments…");
        assertThat(draft.content()).isEqualTo("""
                Task: Fix the flaky test_transfer_updates_both_balances in the payments service.
                Approach tried: Maybe the two updates race; I will add a sleep before reading the balance.
                What went wrong:
                - Command `pytest tests/test_transfer.py` failed (exit 1): AssertionError: expected balance 100, got 90
                - Re-ran `pytest tests/test_transfer.py` 2 times in a row without changing anything in between.
                - Judge: reaction to failures scored 10/100: Re-ran the same failing test without a change.
                - Judge: hypothesis formation scored 25/100: The only hypothesis came after two blind re-runs.
                - Judge: evidence gathering scored 30/100: Never read the transfer code or the logs.
                - Last attempt before the end: ran `pytest tests/test_transfer.py` (exit 1).
                Do instead:
                - Read the failure output and change one thing before running `pytest tests/test_transfer.py` again.
                - State a hypothesis about the cause before changing code.
                - Reproduce the failure and read the logs or the code before editing.""");
        assertThat(draft.description()).isEqualTo("A debug session that failed: Fix the flaky "
                + "test_transfer_updates_both_balances in the payments service. Command `pytest tests/test_transfer.py` "
                + "failed (exit 1): AssertionError: expected balance 100, got 90.");
        assertThat(draft.tags()).containsExactly("kind:debug", "model:claude-sonnet-4", "language:python",
                "problem:test-failure", "problem:bug");
        assertThat(draft.sourceSessionId()).isEqualTo("trace-9a2e");
    }

    @Test
    void seed_001_a_chat_answer_keeps_its_code_and_uses_the_summary_as_description() {
        List<MemoryDraft> drafts = distiller.distill(Sessions.chatSuccess());

        assertThat(drafts).hasSize(1);
        MemoryDraft draft = drafts.get(0);
        assertThat(draft.title()).isEqualTo("Strategy: How do I upload a 20 GB file to S3 from Python without loading it…");
        assertThat(draft.description()).isEqualTo("The user asked how to upload a very large file to S3 without "
                + "loading it into memory. The assistant recommended boto3's upload_fileobj, which streams a multipart "
                + "upload.");
        assertThat(draft.content()).isEqualTo("""
                Task: How do I upload a 20 GB file to S3 from Python without loading it into memory?
                Approach: The docs confirm upload_fileobj streams because it uses multipart uploads.
                Key steps:
                1. Called `search_docs`
                Result: Answer: Use `upload_fileobj`, which streams the file in parts. It switches to a multipart \
                upload above 8 MB, so memory stays bounded. Outcome: success.
                ```python
                with open('backup.tar', 'rb') as f:
                    s3.upload_fileobj(f, 'backups', 'backup.tar')
                ```""");
        assertThat(draft.tags()).containsExactly("kind:chat", "model:gpt-4o", "language:python");
    }

    @Test
    void a_failed_tool_call_is_what_went_wrong_in_a_chat() {
        MemoryDraft draft = distiller.distill(Sessions.chatToolFailure()).get(0);

        assertThat(draft.outcome()).isEqualTo("failure");
        assertThat(draft.content()).contains("What went wrong:\n- Tool `get_weather` failed: HTTP 503 Service "
                + "Unavailable\n- Last attempt before the end: called `get_weather`, which failed.\n");
        assertThat(draft.content()).endsWith("Do instead:\n- Check `get_weather`'s arguments and availability, and "
                + "handle its errors, before relying on its result.");
        assertThat(draft.tags()).containsExactly("kind:chat", "model:gpt-4o-mini", "problem:network");
    }

    @Test
    void a_successful_session_with_a_weak_dimension_also_yields_an_anti_pattern_for_that_weakness() {
        CompletedSession session = withJudgement(Sessions.debugSuccess(), new Judgement(66, List.of(
                new Dimension("hypothesis_formation", 90, "Clear hypothesis."),
                new Dimension("verification_after_edits", 30, "Only one of two changes was tested."),
                new Dimension("clarity_of_reasoning", 45, "Short thoughts."))));

        List<MemoryDraft> drafts = distiller.distill(session);

        assertThat(drafts).extracting(MemoryDraft::outcome).containsExactly("success", "failure");
        MemoryDraft weakness = drafts.get(1);
        assertThat(weakness.title())
                .isEqualTo("Anti-pattern (verification after edits): Login endpoint returns 500 when the…");
        assertThat(weakness.description()).isEqualTo("The session succeeded, but the judge scored verification after "
                + "edits 30/100. Only one of two changes was tested.");
        assertThat(weakness.content()).isEqualTo("""
                Task: Login endpoint returns 500 when the password contains a non-ASCII character. Users with an é \
                in their password cannot sign in since the 2.3 release.
                What went wrong:
                - Judge: verification after edits scored 30/100: Only one of two changes was tested.
                - Judge: clarity of reasoning scored 45/100: Short thoughts.
                Do instead:
                - Run the tests after every change, before moving on.
                - Write down why each step is taken, so the reasoning can be checked.
                Result: the debug session still succeeded (judge score 66/100); the weakness made it riskier, not \
                impossible.""");
        assertThat(weakness.tags()).isEqualTo(drafts.get(0).tags());
    }

    @Test
    void a_dimension_the_rubric_does_not_know_gets_the_judges_own_words_as_advice() {
        List<MemoryDraft> drafts = distiller.distill(Sessions.trading(Outcome.UNKNOWN,
                new Judgement(80, List.of(new Dimension("risk_management", 40, "Ignored the stop-loss.")))));

        assertThat(drafts).hasSize(2);
        assertThat(drafts.get(1).content()).contains("- Do not repeat what the judge flagged for risk management: "
                + "Ignored the stop-loss.\n");
    }

    @ParameterizedTest(name = "outcome {0}, judge {1}: {2}")
    @CsvSource(nullValues = "none", value = {
            "UNKNOWN, none, none",
            "UNKNOWN, 0, failure",
            "UNKNOWN, 49, failure",
            "UNKNOWN, 50, none",
            "UNKNOWN, 69, none",
            "UNKNOWN, 70, success",
            "UNKNOWN, 100, success",
            "SUCCESS, none, success",
            "SUCCESS, 20, success",
            "FAILURE, none, failure",
            "FAILURE, 95, failure",
    })
    void which_drafts_an_outcome_and_a_judge_score_yield(Outcome outcome, Integer score, String expected) {
        Judgement judgement = score == null ? null : new Judgement(score, List.of());

        List<MemoryDraft> drafts = distiller.distill(Sessions.trading(outcome, judgement));

        if (expected == null) {
            assertThat(drafts).isEmpty();
        } else {
            assertThat(drafts).extracting(MemoryDraft::outcome).containsExactly(expected);
        }
    }

    @Test
    void a_trace_without_an_outcome_whose_tests_passed_after_the_last_edit_is_a_success_unless_judged_weak() {
        CompletedSession fixed = Sessions.debugSuccess();
        CompletedSession unknown = new CompletedSession(fixed.sessionId(), fixed.projectId(), fixed.kind(),
                fixed.model(), fixed.task(), fixed.turns(), fixed.activities(), Outcome.UNKNOWN, fixed.finalDiff(),
                fixed.summary(), new Judgement(63, List.of()), fixed.completedAt());

        assertThat(distiller.distill(unknown)).extracting(MemoryDraft::outcome).containsExactly("success");

        CompletedSession unjudged = new CompletedSession(fixed.sessionId(), fixed.projectId(), fixed.kind(),
                fixed.model(), fixed.task(), fixed.turns(), fixed.activities(), Outcome.UNKNOWN, fixed.finalDiff(),
                fixed.summary(), null, fixed.completedAt());
        assertThat(distiller.distill(unjudged)).extracting(MemoryDraft::outcome).containsExactly("success");

        CompletedSession weak = new CompletedSession(fixed.sessionId(), fixed.projectId(), fixed.kind(),
                fixed.model(), fixed.task(), fixed.turns(), fixed.activities(), Outcome.UNKNOWN, fixed.finalDiff(),
                fixed.summary(), new Judgement(40, List.of()), fixed.completedAt());
        assertThat(distiller.distill(weak)).extracting(MemoryDraft::outcome).containsExactly("failure");
    }

    @Test
    void a_fix_is_verified_only_by_a_passing_command_after_the_last_edit() {
        assertThat(Distiller.verifiedFix(Sessions.debugSuccess())).isTrue();
        assertThat(Distiller.verifiedFix(Sessions.debugFailure())).isFalse();
        CompletedSession editLast = new CompletedSession("s", "p", "debug", null, "t", List.of(), List.of(
                Activity.command("pytest", 0, "ok"), Activity.edit("a.py")), Outcome.UNKNOWN, null, null, null,
                COMPLETED);
        assertThat(Distiller.verifiedFix(editLast)).isFalse();
        CompletedSession failedAfter = new CompletedSession("s", "p", "debug", null, "t", List.of(), List.of(
                Activity.edit("a.py"), Activity.command("pytest", 0, "ok"), Activity.command("pytest -k x", 1, "E")),
                Outcome.UNKNOWN, null, null, null, COMPLETED);
        assertThat(Distiller.verifiedFix(failedAfter)).isFalse();
    }

    @Test
    void a_session_without_turns_or_activities_yields_nothing_whatever_its_outcome_and_summary() {
        for (Outcome outcome : Outcome.values()) {
            CompletedSession empty = new CompletedSession("s-empty", "p", "debug", "gpt-4o", "Fix the build",
                    null, null, outcome, "diff --git a/x.go b/x.go", "The build was fixed.", new Judgement(90, null),
                    COMPLETED);

            assertThat(distiller.distill(empty)).as("%s", outcome).isEmpty();
        }
    }

    @Test
    void a_failure_with_no_failing_step_still_says_what_is_known() {
        CompletedSession session = new CompletedSession("s-1", "p", "debug", null, "Speed up the nightly export",
                null, List.of(Activity.thought("The export is slow; maybe an index is missing."),
                Activity.edit("export/query.sql")), Outcome.FAILURE, null, null, null, COMPLETED);

        MemoryDraft draft = distiller.distill(session).get(0);

        assertThat(draft.content()).contains("What went wrong:\n"
                + "- The session was reported as failed; no failing command or tool error was recorded.\n"
                + "- Last attempt before the end: edited `export/query.sql`, then the session ended without a passing "
                + "check.\n");
        assertThat(draft.content()).endsWith("Do instead:\n- Find the cause of the first failure before trying "
                + "another fix, and verify each change with a test.");
        assertThat(draft.tags()).containsExactly("kind:debug", "language:sql", "problem:performance");
    }

    @Test
    void a_long_trace_keeps_its_first_two_and_last_five_steps() {
        List<Activity> activities = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            activities.add(Activity.command("make step" + i, 0, "ok"));
        }
        CompletedSession session = new CompletedSession("s-long", "p", "debug", null, "Run the pipeline", null,
                activities, Outcome.SUCCESS, null, null, null, COMPLETED);

        String content = distiller.distill(session).get(0).content();

        assertThat(content).contains("Key steps:\n1. Ran `make step0`: passed (exit 0)\n2. Ran `make step1`: passed "
                + "(exit 0)\n3. … 13 more steps …\n4. Ran `make step15`: passed (exit 0)\n");
        assertThat(content).contains("8. Ran `make step19`: passed (exit 0)\nResult:");
    }

    @Test
    void a_command_repeated_with_the_same_result_is_one_step() {
        CompletedSession session = new CompletedSession("s-r", "p", "debug", null, "Fix the test", null, List.of(
                Activity.command("go test ./...", 1, "--- FAIL: TestParse"),
                Activity.command("go test ./...", 1, "--- FAIL: TestParse"),
                Activity.edit("parse/parse.go"), Activity.edit("parse/parse_test.go"), Activity.edit("parse/parse.go"),
                Activity.command("go test ./...", 0, "ok")), Outcome.SUCCESS, null, null, null, COMPLETED);

        String content = distiller.distill(session).get(0).content();

        assertThat(content).contains("1. Ran `go test ./...` (2×): failed (exit 1), --- FAIL: TestParse\n"
                + "2. Edited `parse/parse.go`, `parse/parse_test.go`\n3. Ran `go test ./...`: passed (exit 0)\n");
    }

    @Test
    void every_secret_in_the_session_is_gone_from_every_draft() {
        String token = "gh" + "p_" + "Q7rT2kX9LmN4pZ8vW3sY6bJ1cH5dF0gAq7Rt";
        CompletedSession session = new CompletedSession("s-secret", "p", "debug", "gpt-4o",
                "Deploy fails with 401 after rotating GITHUB_TOKEN=" + token, null, List.of(
                Activity.thought("The CI uses token " + token + " which was revoked, password=hunter22 is fine."),
                Activity.command("curl -H 'Authorization: Bearer " + token + "' https://api.github.com/user", 22,
                        "HTTP/2 401\n{\"message\": \"Bad credentials\", \"token\": \"" + token + "\"}"),
                Activity.command("psql postgres://deploy:Sup3rS3cret@db:5432/app -c 'select 1'", 2,
                        "FATAL: password authentication failed for user \"deploy\"")),
                Outcome.FAILURE, "+++ b/.env\n+API_KEY=abcdef0123456789abcdef\n", null, null, COMPLETED);

        List<MemoryDraft> drafts = distiller.distill(session);

        assertThat(drafts).isNotEmpty();
        for (MemoryDraft draft : drafts) {
            String all = String.join("\n", draft.title(), draft.description(), draft.content(),
                    String.join(" ", draft.tags()));
            assertThat(all).doesNotContain(token).doesNotContain("hunter22").doesNotContain("Sup3rS3cret")
                    .doesNotContain("abcdef0123456789abcdef");
            assertThat(draft.title().length()).isLessThanOrEqualTo(MemoryDraft.MAX_TITLE_LENGTH);
        }
        assertThat(drafts.get(0).content()).contains("[REDACTED:github-token]")
                .contains("postgres://deploy:[REDACTED:url-password]@db:5432/app");
    }

    @Test
    void a_very_long_or_non_latin_task_still_gives_a_title_of_at_most_80_characters() {
        String emoji = "🚀".repeat(200);
        for (String task : List.of("x".repeat(10_000), "word ".repeat(2_000), emoji,
                "修复登录接口在密码包含非ASCII字符时返回500的问题并添加回归测试以防止再次发生这种情况和其他类似的编码问题".repeat(3))) {
            CompletedSession session = new CompletedSession("s", "p", "chat", null, task,
                    List.of(new Turn(0, "user", "hi", null)), null, Outcome.SUCCESS, null, null, null, COMPLETED);

            String title = distiller.distill(session).get(0).title();

            assertThat(title.length()).as(task.substring(0, 10)).isLessThanOrEqualTo(80);
            assertThat(title).startsWith("Strategy: ").endsWith("…");
            assertThat(Character.isHighSurrogate(title.charAt(title.length() - 2))).isFalse();
        }
    }

    @Test
    void without_a_task_the_title_comes_from_the_first_user_message_then_the_summary_then_the_session() {
        List<Turn> noUser = List.of(new Turn(0, "assistant", "Done.", null));

        CompletedSession fromSummary = new CompletedSession("s-9", "p", "chat", null, null, noUser, null,
                Outcome.SUCCESS, null, "Explained cron syntax. Gave two examples.", null, COMPLETED);
        CompletedSession fromNothing = new CompletedSession("s-9", "p", "chat", null, "  ", noUser, null,
                Outcome.SUCCESS, null, null, null, COMPLETED);

        assertThat(distiller.distill(Sessions.chatSuccess()).get(0).title()).startsWith("Strategy: How do I upload");
        assertThat(distiller.distill(fromSummary).get(0).title()).isEqualTo("Strategy: Explained cron syntax");
        assertThat(distiller.distill(fromNothing).get(0).title()).isEqualTo("Strategy: chat session s-9");
        assertThat(distiller.distill(fromNothing).get(0).content()).startsWith("Task: (not recorded)\n");
    }

    @Test
    void the_same_session_always_gives_the_same_drafts_whatever_the_order_its_turns_were_loaded_in() {
        CompletedSession chat = Sessions.chatSuccess();
        List<Turn> shuffled = new ArrayList<>(chat.turns());
        Collections.reverse(shuffled);
        CompletedSession reloaded = new CompletedSession(chat.sessionId(), chat.projectId(), chat.kind(), chat.model(),
                chat.task(), shuffled, chat.activities(), chat.outcome(), chat.finalDiff(), chat.summary(),
                chat.judgement(), chat.completedAt());

        assertThat(distiller.distill(reloaded)).isEqualTo(distiller.distill(chat));
        for (CompletedSession session : List.of(Sessions.debugSuccess(), Sessions.debugFailure(),
                Sessions.chatToolFailure())) {
            assertThat(new Distiller().distill(session)).isEqualTo(distiller.distill(session));
        }
    }

    @Test
    void titles_stay_short_and_descriptions_stay_within_two_sentences_for_random_sessions() {
        Random random = new Random(3);
        String[] words = {"fix", "the", "login", "bug.", "Test", "fails!", "Why?", "token", "é", "🚀", "x.py", "500"};
        for (int i = 0; i < 300; i++) {
            StringBuilder task = new StringBuilder();
            for (int w = 0, n = random.nextInt(60); w < n; w++) {
                task.append(words[random.nextInt(words.length)]).append(' ');
            }
            List<Activity> activities = List.of(Activity.command("pytest", random.nextInt(3), "E   Error: " + task),
                    Activity.thought(task.toString()));
            CompletedSession session = new CompletedSession("s" + i, "p", "debug", null, task.toString(), null,
                    activities, random.nextBoolean() ? Outcome.SUCCESS : Outcome.FAILURE, null,
                    random.nextBoolean() ? null : task.toString(), null, COMPLETED);

            for (MemoryDraft draft : distiller.distill(session)) {
                assertThat(draft.title().length()).as("case %d", i).isLessThanOrEqualTo(80);
                assertThat(draft.description()).as("case %d", i).isNotBlank();
                assertThat(draft.description().length()).as("case %d", i).isLessThanOrEqualTo(400);
                assertThat(draft.content()).as("case %d", i).startsWith("Task: ");
            }
        }
    }

    @Test
    void reasoning_steps_and_tool_steps_are_read_in_their_recorded_order() {
        Turn turn = new Turn(1, "assistant", "Done.", List.of(
                new Step(2, "tool", null, "second_tool", "ok", null),
                new Step(0, "reasoning", "I need the schema first, so I will call describe_table.", null, null, null),
                new Step(1, "tool", null, "describe_table", "id int", null)));
        CompletedSession session = new CompletedSession("s", "p", "chat", null, "Count rows",
                List.of(new Turn(0, "user", "Count rows", null), turn), null, Outcome.SUCCESS, null, null, null,
                COMPLETED);

        assertThat(distiller.distill(session).get(0).content())
                .contains("Key steps:\n1. Called `describe_table`\n2. Called `second_tool`\n");
    }

    @Test
    void a_session_needs_ids_a_kind_and_a_completion_time() {
        assertThatThrownBy(() -> new CompletedSession(" ", "p", "chat", null, null, null, null, null, null, null,
                null, COMPLETED)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("sessionId");
        assertThatThrownBy(() -> new CompletedSession("s", null, "chat", null, null, null, null, null, null, null,
                null, COMPLETED)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("projectId");
        assertThatThrownBy(() -> new CompletedSession("s", "p", "", null, null, null, null, null, null, null,
                null, COMPLETED)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("kind");
        assertThatThrownBy(() -> new CompletedSession("s", "p", "chat", null, null, null, null, null, null, null,
                null, null)).isInstanceOf(NullPointerException.class);
        assertThat(new CompletedSession("s", "p", "chat", null, null, null, null, null, null, null, null, COMPLETED)
                .outcome()).isEqualTo(Outcome.UNKNOWN);
    }

    @Test
    void judge_scores_must_be_within_0_and_100() {
        assertThatThrownBy(() -> new Judgement(101, null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Judgement(-1, null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Dimension("x", 101, null)).isInstanceOf(IllegalArgumentException.class);
        assertThat(new Judgement(0, null).dimensions()).isEmpty();
        assertThat(new Dimension("x", 100, null).rationale()).isEmpty();
    }

    @Test
    void a_draft_is_a_success_or_a_failure() {
        assertThatThrownBy(() -> new MemoryDraft("t", "d", "c", "partial", List.of(), "s"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(new MemoryDraft("t", "d", "c", "success", null, "s").tags()).isEmpty();
    }

    private static CompletedSession withJudgement(CompletedSession session, Judgement judgement) {
        return new CompletedSession(session.sessionId(), session.projectId(), session.kind(), session.model(),
                session.task(), session.turns(), session.activities(), session.outcome(), session.finalDiff(),
                session.summary(), judgement, session.completedAt());
    }
}
