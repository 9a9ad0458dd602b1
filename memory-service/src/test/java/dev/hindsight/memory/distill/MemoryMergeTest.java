package dev.hindsight.memory.distill;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Given a stored memory and a near-duplicate draft, then the merged memory and what changed. */
class MemoryMergeTest {

    private static final ExistingMemory EXISTING = new ExistingMemory("mem-1", "Strategy: Encode passwords as UTF-8",
            "Hash passwords from UTF-8 bytes.",
            "Task: Login fails for non-ASCII passwords.\nApproach: Encode the password as UTF-8 before hashing.",
            "success", List.of("kind:debug", "language:python", "problem:auth"), List.of("trace-1"));

    @Test
    void keeps_id_and_title_and_unions_tags_and_sources_in_a_stable_order() {
        MemoryDraft draft = draft("Strategy: Something else", "Short.", "Task: x",
                List.of("kind:debug", "language:go", "Problem:Auth", "problem:data"), "trace-2");

        MemoryMerge.Merged merged = MemoryMerge.merge(EXISTING, draft);

        assertThat(merged.memory().id()).isEqualTo("mem-1");
        assertThat(merged.memory().title()).isEqualTo("Strategy: Encode passwords as UTF-8");
        assertThat(merged.memory().tags()).containsExactly("kind:debug", "language:python", "problem:auth",
                "language:go", "problem:data");
        assertThat(merged.addedTags()).containsExactly("language:go", "problem:data");
        assertThat(merged.memory().sourceSessionIds()).containsExactly("trace-1", "trace-2");
        assertThat(merged.addedSourceSessionIds()).containsExactly("trace-2");
        assertThat(merged.memory().outcome()).isEqualTo("success");
        assertThat(merged.changed()).isTrue();
    }

    @Test
    void a_clearly_more_informative_content_and_description_replace_the_existing_ones() {
        String richer = "Task: Login fails for non-ASCII passwords.\nApproach: Encode the password as UTF-8 before "
                + "hashing; bcrypt takes bytes and the ascii codec raises on any accented letter.\nKey steps:\n"
                + "1. Reproduced with pytest -k unicode\n2. Edited hashing module\nResult: existing hashes stay valid.";
        MemoryDraft draft = draft("t", "Hash passwords from UTF-8 bytes, because bcrypt needs bytes and ASCII "
                + "encoding breaks accented passwords.", richer, List.of(), "trace-2");

        MemoryMerge.Merged merged = MemoryMerge.merge(EXISTING, draft);

        assertThat(merged.contentReplaced()).isTrue();
        assertThat(merged.memory().content()).isEqualTo(richer);
        assertThat(merged.descriptionReplaced()).isTrue();
        assertThat(merged.memory().description()).startsWith("Hash passwords from UTF-8 bytes, because");
    }

    @Test
    void equal_less_or_slightly_more_informative_text_keeps_the_existing_one() {
        MemoryDraft same = draft("t", EXISTING.description(), EXISTING.content(), List.of(), "trace-2");
        MemoryDraft shorter = draft("t", "UTF-8.", "Task: Login.", List.of(), "trace-2");
        MemoryDraft slightlyMore = draft("t", "Hash passwords from UTF-8 bytes always.",
                EXISTING.content() + " Tested.", List.of(), "trace-2");

        for (MemoryDraft draft : List.of(same, shorter, slightlyMore)) {
            MemoryMerge.Merged merged = MemoryMerge.merge(EXISTING, draft);

            assertThat(merged.contentReplaced()).as(draft.content()).isFalse();
            assertThat(merged.descriptionReplaced()).as(draft.description()).isFalse();
            assertThat(merged.memory().content()).isEqualTo(EXISTING.content());
            assertThat(merged.memory().description()).isEqualTo(EXISTING.description());
        }
    }

    @Test
    void an_empty_existing_description_is_replaced_by_any_informative_one() {
        ExistingMemory bare = new ExistingMemory("m", "t", null, null, "failure", null, null);

        MemoryMerge.Merged merged = MemoryMerge.merge(bare, new MemoryDraft("t", "Re-running flaky tests hides "
                + "races.", "What went wrong: re-ran the test unchanged", "failure", List.of("kind:debug"), "s-1"));

        assertThat(merged.descriptionReplaced()).isTrue();
        assertThat(merged.contentReplaced()).isTrue();
        assertThat(merged.memory().sourceSessionIds()).containsExactly("s-1");
    }

    @Test
    void merging_the_same_draft_twice_changes_nothing_the_second_time() {
        MemoryDraft draft = draft("t", "Short.", "Task: x", List.of("language:go"), "trace-2");
        MemoryMerge.Merged first = MemoryMerge.merge(EXISTING, draft);

        MemoryMerge.Merged second = MemoryMerge.merge(first.memory(), draft);

        assertThat(second.changed()).isFalse();
        assertThat(second.memory()).isEqualTo(first.memory());
        assertThat(second.addedTags()).isEmpty();
        assertThat(second.addedSourceSessionIds()).isEmpty();
    }

    @Test
    void tags_and_sources_are_capped_keeping_the_oldest() {
        List<String> manyTags = new ArrayList<>();
        List<String> manySources = new ArrayList<>();
        for (int i = 0; i < MemoryMerge.MAX_SOURCES; i++) {
            manySources.add("s-" + i);
        }
        for (int i = 0; i < MemoryMerge.MAX_TAGS - 1; i++) {
            manyTags.add("tag:" + i);
        }
        ExistingMemory full = new ExistingMemory("m", "t", "d", "c", "success", manyTags, manySources);

        MemoryMerge.Merged merged = MemoryMerge.merge(full, draft("t", "d", "c", List.of("new:1", "new:2", " "),
                "s-new"));

        assertThat(merged.memory().tags()).hasSize(MemoryMerge.MAX_TAGS).endsWith("new:1");
        assertThat(merged.addedTags()).containsExactly("new:1");
        assertThat(merged.memory().sourceSessionIds()).isEqualTo(manySources);
        assertThat(merged.addedSourceSessionIds()).isEmpty();
    }

    @Test
    void a_strategy_never_merges_into_an_anti_pattern() {
        MemoryDraft failure = new MemoryDraft("t", "d", "c", "failure", List.of(), "s");

        assertThat(MemoryMerge.compatible(EXISTING, failure)).isFalse();
        assertThat(MemoryMerge.compatible(EXISTING, draft("t", "d", "c", List.of(), "s"))).isTrue();
        assertThatThrownBy(() -> MemoryMerge.merge(EXISTING, failure)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("mem-1");
    }

    @Test
    void informative_words_ignore_case_repetition_short_words_and_stop_words() {
        assertThat(MemoryMerge.informativeWords("The fix: the FIX, the Fix to a DB")).isEqualTo(1);
        assertThat(MemoryMerge.informativeWords("Überprüfe die Kodierung: UTF-8 statt ASCII")).isEqualTo(6);
        assertThat(MemoryMerge.informativeWords(null)).isZero();
        assertThat(MemoryMerge.informativeWords("")).isZero();
    }

    private static MemoryDraft draft(String title, String description, String content, List<String> tags,
                                     String session) {
        return new MemoryDraft(title, description, content, "success", tags, session);
    }
}
