package dev.hindsight.memory.context;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Given ranked memories and a token budget, then the block an agent gets at session start. */
class ContextBlockTest {

    private static final ContextMemory UTF8 = new ContextMemory("m1", "Strategy: Encode passwords as UTF-8", null,
            "Task: Login 500 for non-ASCII passwords.\nApproach: Encode as UTF-8 before hashing.\nKey steps:\n"
                    + "1. Ran `pytest -k unicode`: failed (exit 1)\n2. Edited `app/auth/hashing.py`\n"
                    + "Result: Tests pass.", "success", 0.82, List.of("kind:debug"));
    private static final ContextMemory FLAKY = new ContextMemory("m2", "Anti-pattern: Re-running a flaky test", null,
            "Task: Fix flaky test.\nWhat went wrong:\n- Re-ran the test twice unchanged.\nDo instead:\n"
                    + "- Read the failure output first.\n- Change one thing at a time.", "failure", 0.74, null);
    private static final ContextMemory UPLOAD = new ContextMemory("m3", "Strategy: Stream uploads with upload_fileobj",
            "Use upload_fileobj for big files.", "", "success", 0.9, null);

    @Test
    void strategies_and_anti_patterns_get_their_own_sections_in_ranking_order() {
        ContextBlock.Rendered rendered = ContextBlock.render("Fix login for accented passwords",
                List.of(UTF8, FLAKY, UPLOAD), ContextBlock.DEFAULT_MAX_TOKENS);

        assertThat(rendered.text()).isEqualTo("""
                ## Lessons from past sessions
                Task: Fix login for accented passwords

                ### Strategies that worked
                - **Strategy: Encode passwords as UTF-8** (confidence 0.82): Approach: Encode as UTF-8 before \
                hashing. Key steps: Ran `pytest -k unicode`: failed (exit 1); Edited `app/auth/hashing.py`. Result: \
                Tests pass.
                - **Strategy: Stream uploads with upload_fileobj** (confidence 0.90): Use upload_fileobj for big files.

                ### Anti-patterns to avoid
                - **Anti-pattern: Re-running a flaky test** (confidence 0.74): Do instead: Read the failure output \
                first; Change one thing at a time. What went wrong: Re-ran the test twice unchanged.""");
        assertThat(rendered.includedIds()).containsExactly("m1", "m2", "m3");
        assertThat(rendered.omitted()).isZero();
        assertThat(rendered.estimatedTokens()).isEqualTo(TokenEstimator.estimate(rendered.text()));
    }

    @Test
    void never_above_the_budget_and_always_a_prefix_of_the_ranking() {
        List<ContextMemory> memories = longMemories(new Random(11), 40);
        List<String> ids = memories.stream().map(ContextMemory::id).toList();
        for (int budget = 0; budget <= 900; budget += 3) {
            ContextBlock.Rendered rendered = ContextBlock.render("Make the nightly export faster", memories, budget);

            assertThat(TokenEstimator.estimate(rendered.text())).as("budget %d", budget)
                    .isLessThanOrEqualTo(budget).isEqualTo(rendered.estimatedTokens());
            assertThat(rendered.includedIds()).as("budget %d", budget)
                    .isEqualTo(ids.subList(0, rendered.includedIds().size()));
            assertThat(rendered.omitted()).isEqualTo(memories.size() - rendered.includedIds().size());
            if (!rendered.includedIds().isEmpty()) {
                assertThat(rendered.text()).startsWith("## Lessons from past sessions\n");
            }
        }
    }

    @Test
    void a_budget_too_small_for_the_heading_and_one_memory_gives_nothing() {
        int heading = TokenEstimator.estimate(ContextBlock.HEADING);
        for (int budget : new int[] {0, 1, heading - 1, heading}) {
            ContextBlock.Rendered rendered = ContextBlock.render("task", List.of(UTF8, FLAKY), budget);

            assertThat(rendered.text()).as("budget %d", budget).isEmpty();
            assertThat(rendered.estimatedTokens()).isZero();
            assertThat(rendered.includedIds()).isEmpty();
            assertThat(rendered.omitted()).isEqualTo(2);
        }
    }

    @Test
    void no_memories_give_an_empty_block() {
        ContextBlock.Rendered rendered = ContextBlock.render("task", List.of(), 500);

        assertThat(rendered).isEqualTo(new ContextBlock.Rendered("", 0, List.of(), 0));
    }

    @Test
    void the_memory_that_no_longer_fits_is_cut_on_a_word_boundary() {
        String words = String.join(" ", wordsList(60));
        ContextMemory memory = new ContextMemory("w", "Notes", null, words, "success", 0.8, null);
        int budget = TokenEstimator.estimate("## Lessons from past sessions\n\n### Strategies that worked\n"
                + "- **Notes** (confidence 0.80): " + String.join(" ", wordsList(20)));

        ContextBlock.Rendered rendered = ContextBlock.render(null, List.of(memory), budget);

        String body = rendered.text().substring(rendered.text().indexOf("): ") + 3);
        assertThat(body).endsWith("…");
        String kept = body.substring(0, body.length() - 1);
        assertThat(words).startsWith(kept + " ");
        assertThat(kept.split(" ").length).isBetween(ContextBlock.MIN_CUT_WORDS, 59);
        assertThat(rendered.estimatedTokens()).isLessThanOrEqualTo(budget);
        assertThat(rendered.includedIds()).containsExactly("w");
    }

    @Test
    void the_cut_ends_a_sentence_when_that_keeps_more_than_half() {
        String content = "Reproduce the failure first. Then read the stack trace from the bottom up. "
                + "Change one thing at a time and run the failing test after each change. "
                + "Keep the fix small so the reviewer can follow it and revert it easily.";
        ContextMemory memory = new ContextMemory("s", "Debugging", null, content, "success", 0.8, null);
        int budget = TokenEstimator.estimate("## Lessons from past sessions\n\n### Strategies that worked\n"
                + "- **Debugging** (confidence 0.80): Reproduce the failure first. Then read the stack trace from the "
                + "bottom up. Change one thing at a time and run");

        ContextBlock.Rendered rendered = ContextBlock.render("", List.of(memory), budget);

        assertThat(rendered.text()).endsWith("(confidence 0.80): Reproduce the failure first. Then read the stack "
                + "trace from the bottom up.");
    }

    @Test
    void a_memory_with_room_for_fewer_than_four_words_is_omitted_and_nothing_after_it_jumps_ahead() {
        ContextMemory big = new ContextMemory("big", "A long title about a very specific lesson learned the hard way",
                null, String.join(" ", wordsList(50)), "success", 0.8, null);
        ContextMemory tiny = new ContextMemory("tiny", "T", null, "ok", "success", 0.8, null);
        ContextBlock.Rendered first = ContextBlock.render("", List.of(UPLOAD), 500);
        int budget = first.estimatedTokens() + 12;

        ContextBlock.Rendered rendered = ContextBlock.render("", List.of(UPLOAD, big, tiny), budget);

        assertThat(rendered.includedIds()).containsExactly("m3");
        assertThat(rendered.omitted()).isEqualTo(2);
        assertThat(rendered.text()).isEqualTo(first.text());
    }

    @Test
    void the_task_line_is_dropped_before_a_memory_is() {
        String longTask = String.join(" ", wordsList(30));
        ContextBlock.Rendered withoutTask = ContextBlock.render("", List.of(UPLOAD), 500);

        ContextBlock.Rendered rendered = ContextBlock.render(longTask, List.of(UPLOAD), withoutTask.estimatedTokens());

        assertThat(rendered.text()).isEqualTo(withoutTask.text()).doesNotContain("Task:");
        assertThat(rendered.includedIds()).containsExactly("m3");
    }

    @Test
    void one_memory_cannot_take_the_whole_budget() {
        ContextMemory huge = new ContextMemory("h", "Huge", null, "Sentence number one is here. ".repeat(500),
                "success", 0.8, null);

        ContextBlock.Rendered rendered = ContextBlock.render("", List.of(huge, UPLOAD), 500);

        assertThat(rendered.includedIds()).containsExactly("h", "m3");
        String hugeLine = rendered.text().lines().filter(line -> line.startsWith("- **Huge**")).findFirst().orElseThrow();
        assertThat(TokenEstimator.estimate(hugeLine)).isLessThanOrEqualTo(ContextBlock.MAX_ITEM_TOKENS + 20);
        assertThat(hugeLine).endsWith("is here.");
    }

    @Test
    void seed_004_sc_002_ten_distilled_memories_fit_in_500_tokens_with_several_shown() {
        List<ContextMemory> memories = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            memories.add(i % 3 == 2 ? new ContextMemory("f" + i, "Anti-pattern: Re-running flaky test " + i, null,
                    FLAKY.content(), "failure", 0.75, null)
                    : new ContextMemory("s" + i, "Strategy: Encode passwords as UTF-8, variant " + i, null,
                    UTF8.content(), "success", 0.8, null));
        }

        ContextBlock.Rendered rendered = ContextBlock.render("Users with accented passwords cannot log in",
                memories, ContextBlock.DEFAULT_MAX_TOKENS);

        assertThat(rendered.estimatedTokens()).isLessThanOrEqualTo(500);
        assertThat(rendered.includedIds().size()).isGreaterThanOrEqualTo(4);
    }

    @Test
    void secrets_never_reach_the_agent() {
        String token = "gh" + "p_" + "Q7rT2kX9LmN4pZ8vW3sY6bJ1cH5dF0gAq7Rt";
        ContextMemory leaky = new ContextMemory("l", "Use GITHUB_TOKEN=" + token, null,
                "Approach: export GITHUB_TOKEN=" + token + " then push.", "success", 0.8, null);

        ContextBlock.Rendered rendered = ContextBlock.render("push with password=hunter22", List.of(leaky), 500);

        assertThat(rendered.text()).doesNotContain(token).doesNotContain("hunter22")
                .contains("[REDACTED:github-token]").contains("[REDACTED:password]");
    }

    @Test
    void unicode_titles_and_content_stay_within_small_budgets() {
        List<ContextMemory> memories = List.of(
                new ContextMemory("u1", "🚀".repeat(100), null, "修复登录问题。".repeat(80), "success", 0.8, null),
                new ContextMemory("u2", "Привет", null, "Кодировка UTF-8 решает проблему. ".repeat(40), "failure",
                        0.71, null));
        for (int budget = 0; budget <= 300; budget++) {
            ContextBlock.Rendered rendered = ContextBlock.render("задача", memories, budget);

            assertThat(rendered.estimatedTokens()).as("budget %d", budget).isLessThanOrEqualTo(budget);
            assertThat(rendered.text()).doesNotContain("\uFFFD");
            for (int i = 0; i < rendered.text().length(); i++) {
                char c = rendered.text().charAt(i);
                if (Character.isHighSurrogate(c)) {
                    assertThat(Character.isLowSurrogate(rendered.text().charAt(i + 1))).isTrue();
                }
            }
        }
    }

    @Test
    void confidence_shows_two_decimals_clamped_to_the_unit_interval() {
        List<ContextMemory> memories = List.of(
                new ContextMemory("a", "A", null, "x", "success", 0.8, null),
                new ContextMemory("b", "B", null, "x", "success", Double.NaN, null),
                new ContextMemory("c", "C", null, "x", "success", 1.5, null),
                new ContextMemory("d", "", null, "", "success", -1, null));

        String text = ContextBlock.render(null, memories, 500).text();

        assertThat(text).contains("- **A** (confidence 0.80): x\n", "- **B** (confidence 0.00): x\n",
                "- **C** (confidence 1.00): x\n").endsWith("- **(untitled)** (confidence 0.00)");
    }

    @Test
    void condensing_drops_the_task_and_leads_an_anti_pattern_with_what_to_do_instead() {
        assertThat(ContextBlock.condensed(FLAKY.content(), true)).isEqualTo(
                "Do instead: Read the failure output first; Change one thing at a time. What went wrong: Re-ran the "
                        + "test twice unchanged.");
        assertThat(ContextBlock.condensed("Plain text without sections.", false))
                .isEqualTo("Plain text without sections.");
        assertThat(ContextBlock.condensed("Task: Only a task.", false)).isEqualTo("Task: Only a task.");
        assertThat(ContextBlock.condensed("Intro line.\nResult: done", false)).isEqualTo("Intro line. Result: done");
    }

    @Test
    void invalid_arguments_are_refused() {
        assertThatThrownBy(() -> ContextBlock.render("t", List.of(), -1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ContextBlock.render("t", null, 10)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> new ContextMemory(null, "t", null, null, null, 0.5, null))
                .isInstanceOf(NullPointerException.class);
    }

    private static List<String> wordsList(int count) {
        String[] pool = {"index", "the", "export", "query", "batch", "rows", "slowly", "because", "missing", "scan"};
        List<String> words = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            words.add(pool[i % pool.length] + i);
        }
        return words;
    }

    private static List<ContextMemory> longMemories(Random random, int count) {
        String[] sentences = {"Add an index on the customer id column.", "Batch the inserts by 500 rows.",
                "The export scanned the whole table because the filter used a function.",
                "Verify with EXPLAIN ANALYZE before and after.", "Do not run the export during the backup window.",
                "Stream rows instead of loading them into memory."};
        List<ContextMemory> memories = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            StringBuilder content = new StringBuilder("Task: Speed up export.\nApproach: ");
            for (int s = 0, n = 5 + random.nextInt(60); s < n; s++) {
                content.append(sentences[random.nextInt(sentences.length)]).append(' ');
            }
            memories.add(new ContextMemory("mem-" + i, "Lesson " + i + ": " + "export ".repeat(random.nextInt(20)),
                    null, content.toString(), random.nextBoolean() ? "success" : "failure", random.nextDouble(),
                    null));
        }
        return memories;
    }
}
