package dev.hindsight.memory.distill;

import dev.hindsight.memory.evidence.CompletedSession.Activity;
import dev.hindsight.memory.evidence.CompletedSession.Dimension;
import dev.hindsight.memory.evidence.CompletedSession.Judgement;
import dev.hindsight.memory.evidence.CompletedSession.Outcome;
import dev.hindsight.memory.evidence.CompletedSession.Step;
import dev.hindsight.memory.evidence.CompletedSession.Turn;
import dev.hindsight.memory.evidence.CompletedSession;
import java.time.Instant;
import java.util.List;

/** Completed sessions of each kind: a debugging trace, a chat with thinking steps, a trading model-day. */
final class Sessions {

    static final Instant COMPLETED = Instant.parse("2025-10-29T18:00:00Z");

    private Sessions() {
    }

    /** A debugging trace: a developer finds why a login fails for non-ASCII passwords, fixes it, runs the tests. */
    static CompletedSession debugSuccess() {
        return new CompletedSession("trace-7f1c", "shop-api", "debug", null,
                "Login endpoint returns 500 when the password contains a non-ASCII character. Users with an é in "
                        + "their password cannot sign in since the 2.3 release.",
                List.of(),
                List.of(
                        Activity.thought("The 500 only happens with non-ASCII passwords. I suspect the hashing step "
                                + "encodes the password as ASCII."),
                        Activity.command("pytest tests/test_login.py -k unicode", 1,
                                "tests/test_login.py F\n"
                                        + "E   UnicodeEncodeError: 'ascii' codec can't encode character '\\xe9' in "
                                        + "position 3: ordinal not in range(128)\n"
                                        + "FAILED tests/test_login.py::test_unicode_password - UnicodeEncodeError"),
                        Activity.command("grep -n encode app/auth/hashing.py", 0,
                                "12:    return bcrypt.hashpw(password.encode('ascii'), salt)"),
                        Activity.thought("Line 12 encodes with ascii, so any non-ASCII password raises. The fix is to "
                                + "encode as utf-8 because bcrypt takes bytes. Existing hashes stay valid for ASCII "
                                + "passwords."),
                        Activity.edit("app/auth/hashing.py"),
                        Activity.command("pytest tests/test_login.py", 0, "5 passed in 0.42s")),
                Outcome.SUCCESS,
                "diff --git a/app/auth/hashing.py b/app/auth/hashing.py\n--- a/app/auth/hashing.py\n"
                        + "+++ b/app/auth/hashing.py\n@@ -10,3 +10,3 @@\n"
                        + "-    return bcrypt.hashpw(password.encode('ascii'), salt)\n"
                        + "+    return bcrypt.hashpw(password.encode('utf-8'), salt)\n",
                null,
                new Judgement(84, List.of(
                        new Dimension("hypothesis_formation", 100, "Stated a hypothesis before the first edit."),
                        new Dimension("evidence_gathering", 85, "Reproduced the failure and read the code."),
                        new Dimension("verification_after_edits", 100, "Ran the tests after the change."),
                        new Dimension("reaction_to_failures", 75, "Analysed the failing test."),
                        new Dimension("clarity_of_reasoning", 60, "Thoughts explain why."))),
                COMPLETED);
    }

    /** A debugging trace: a flaky test chased by re-running it, one blind edit, and the session gives up. */
    static CompletedSession debugFailure() {
        return new CompletedSession("trace-9a2e", "payments", "debug", "claude-sonnet-4",
                "Fix the flaky test_transfer_updates_both_balances in the payments service.",
                List.of(),
                List.of(
                        Activity.command("pytest tests/test_transfer.py", 1,
                                "E   AssertionError: expected balance 100, got 90\n1 failed, 11 passed"),
                        Activity.command("pytest tests/test_transfer.py", 1,
                                "E   AssertionError: expected balance 100, got 90\n1 failed, 11 passed"),
                        Activity.thought("Maybe the two updates race; I will add a sleep before reading the balance."),
                        Activity.edit("payments/transfer.py"),
                        Activity.command("pytest tests/test_transfer.py", 1,
                                "E   AssertionError: expected balance 100, got 90\n1 failed, 11 passed")),
                Outcome.FAILURE,
                null,
                null,
                new Judgement(31, List.of(
                        new Dimension("hypothesis_formation", 25, "The only hypothesis came after two blind re-runs."),
                        new Dimension("evidence_gathering", 30, "Never read the transfer code or the logs."),
                        new Dimension("verification_after_edits", 70, "Ran the test after the edit."),
                        new Dimension("reaction_to_failures", 10, "Re-ran the same failing test without a change."),
                        new Dimension("clarity_of_reasoning", 40, "Few reasons given."))),
                COMPLETED);
    }

    /** A chat whose assistant message interleaves reasoning and a tool call, answered with code. */
    static CompletedSession chatSuccess() {
        return new CompletedSession("chat-51", "assistant", "chat", "gpt-4o",
                null,
                List.of(
                        new Turn(0, "user", "How do I upload a 20 GB file to S3 from Python without loading it into "
                                + "memory?", List.of()),
                        new Turn(1, "assistant", "Use `upload_fileobj`, which streams the file in parts:\n\n"
                                + "```python\nwith open('backup.tar', 'rb') as f:\n"
                                + "    s3.upload_fileobj(f, 'backups', 'backup.tar')\n```\n"
                                + "It switches to a multipart upload above 8 MB, so memory stays bounded.",
                                List.of(
                                        new Step(0, "reasoning", "The user needs streaming, so put_object with the "
                                                + "whole body is wrong; boto3's managed transfer reads in chunks.",
                                                null, null, null),
                                        new Step(1, "tool", null, "search_docs", "upload_fileobj(Fileobj, Bucket, "
                                                + "Key): multipart upload in 8 MB parts", null),
                                        new Step(2, "reasoning", "The docs confirm upload_fileobj streams because it "
                                                + "uses multipart uploads.", null, null, null)))),
                List.of(),
                Outcome.SUCCESS,
                null,
                "The user asked how to upload a very large file to S3 without loading it into memory. The assistant "
                        + "recommended boto3's upload_fileobj, which streams a multipart upload. The user confirmed "
                        + "it worked.",
                null,
                COMPLETED);
    }

    /** A chat where the weather tool kept failing and the assistant guessed. */
    static CompletedSession chatToolFailure() {
        return new CompletedSession("chat-77", "assistant", "chat", "gpt-4o-mini",
                null,
                List.of(
                        new Turn(0, "user", "Will it rain in Lisbon tomorrow?", List.of()),
                        new Turn(1, "assistant", "It will probably be sunny.", List.of(
                                new Step(0, "tool", null, "get_weather", null, "HTTP 503 Service Unavailable"),
                                new Step(1, "reasoning", "The tool is down, I will answer from the season instead.",
                                        null, null, null)))),
                List.of(),
                Outcome.FAILURE,
                null,
                null,
                null,
                COMPLETED);
    }

    /** A trading model-day (design.md § Model-days) with price lookups and a buy. */
    static CompletedSession trading(Outcome outcome, Judgement judgement) {
        return new CompletedSession("trading-2025-10-29-claude", "paper-fund", "trading", "Claude 3.5 Sonnet",
                "Rebalance the portfolio for 2025-10-29 within the 10% position limit.",
                List.of(
                        new Turn(0, "user", "Rebalance the portfolio for 2025-10-29 within the 10% position limit.",
                                List.of()),
                        new Turn(1, "assistant", "Bought 12 NVDA; the position is now 9.8% of the portfolio.",
                                List.of(
                                        new Step(0, "reasoning", "NVDA is below target weight, so I should buy to "
                                                + "bring it back to 10%.", null, null, null),
                                        new Step(1, "tool", null, "get_price", "NVDA 131.20", null),
                                        new Step(2, "tool", null, "buy", "filled 12 @ 131.20", null)))),
                List.of(),
                outcome,
                null,
                null,
                judgement,
                COMPLETED);
    }
}
