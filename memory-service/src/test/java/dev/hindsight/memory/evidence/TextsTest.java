package dev.hindsight.memory.evidence;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TextsTest {

    @Test
    void truncate_keeps_text_that_fits_and_cuts_longer_text_on_a_word_boundary() {
        assertThat(Texts.truncate("exactly ten", 11)).isEqualTo("exactly ten");
        assertThat(Texts.truncate("one two three four", 12)).isEqualTo("one two…");
        assertThat(Texts.truncate("one, two, three", 10)).isEqualTo("one, two…");
        assertThat(Texts.truncate("abcdefghijklmnop", 8)).isEqualTo("abcdefg…");
        assertThat(Texts.truncate(null, 5)).isEmpty();
    }

    @Test
    void truncate_never_splits_a_surrogate_pair_and_handles_tiny_limits() {
        String rockets = "🚀🚀🚀🚀";

        String cut = Texts.truncate(rockets, 4);

        assertThat(cut).isEqualTo("🚀…");
        assertThat(Texts.truncate(rockets, 1)).isEmpty();
        assertThat(Texts.truncate(rockets, 0)).isEmpty();
        assertThat(Texts.truncate("abc", 1)).isEqualTo("a");
    }

    @Test
    void sentences_split_at_a_full_stop_before_a_capital_but_not_inside_versions_or_abbreviations() {
        assertThat(Texts.sentences("Upgrade to v1.2 first. Then run e.g. the tests. Done.", 2))
                .isEqualTo("Upgrade to v1.2 first. Then run e.g. the tests.");
        assertThat(Texts.sentences("  one line\nsecond line  ", 1)).isEqualTo("one line second line");
        assertThat(Texts.sentences(null, 2)).isEmpty();
    }

    @Test
    void as_sentence_ends_with_one_full_stop() {
        assertThat(Texts.asSentence("It works")).isEqualTo("It works.");
        assertThat(Texts.asSentence("It works!")).isEqualTo("It works!");
        assertThat(Texts.asSentence("Cut here…")).isEqualTo("Cut here…");
        assertThat(Texts.asSentence("Trailing:  ")).isEqualTo("Trailing.");
    }

    @Test
    void split_code_keeps_the_first_block_verbatim_and_bounded() {
        Texts.Answer answer = Texts.splitCode("Run this:\n```sh\nls\n```\nThen:\n```\nrm -rf x\n```\nok", 5);

        assertThat(answer.prose()).isEqualTo("Run this. Then. ok");
        assertThat(answer.code()).isEqualTo("```sh\nls\n```");

        Texts.Answer longCode = Texts.splitCode("```\n1\n2\n3\n4", 2);
        assertThat(longCode.code()).isEqualTo("```\n1\n2\n…\n```");
        assertThat(Texts.splitCode("no code at all", 5).code()).isEmpty();
    }
}
