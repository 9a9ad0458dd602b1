package dev.hindsight.memory.context;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The estimator against token counts measured with real tokenizers: cl100k_base and o200k_base (gpt-tokenizer 4.0.0)
 * and Anthropic's published tokenizer (@anthropic-ai/tokenizer 0.0.4). It must never be below the largest of the
 * three, and must not be uselessly far above it for ordinary text.
 */
class TokenEstimatorTest {

    static Stream<Arguments> measured() {
        return Stream.of(
                // text, cl100k, o200k, anthropic
                Arguments.of("The quick brown fox jumps over the lazy dog.", 10, 10, 10),
                Arguments.of("Hello, world!", 4, 4, 4),
                Arguments.of("internationalization", 2, 2, 2),
                Arguments.of("getUserById(userId).orElseThrow(() -> new NotFoundException(\"user \" + userId));",
                        16, 23, 19),
                Arguments.of("def add(a, b):\n    return a + b\n", 12, 12, 13),
                Arguments.of("Traceback (most recent call last):\n  File \"app.py\", line 42, in <module>\n    main()\n"
                        + "TypeError: 'NoneType' object is not subscriptable", 36, 38, 36),
                Arguments.of("3f2a9c1e8b7d6f5a4c3b2a1908f7e6d5c4b3a291", 36, 36, 35),
                Arguments.of("550e8400-e29b-41d4-a716-446655440000", 18, 18, 21),
                Arguments.of("日本語のテキストです。", 10, 8, 10),
                Arguments.of("Привет, как дела?", 8, 6, 9),
                Arguments.of("🎉🚀✨", 8, 5, 7),
                Arguments.of("1234567890", 4, 4, 1),
                Arguments.of("## Memories from past sessions\n\n### Strategies that worked\n- **Fix JWT validation** "
                        + "(confidence 0.82): Validate the token's expiry before the signature.", 33, 33, 35),
                Arguments.of("    ", 1, 1, 1),
                Arguments.of("a", 1, 1, 1),
                Arguments.of("café naïve résumé", 7, 5, 8),
                Arguments.of("SELECT id, title FROM memories WHERE project_id = $1 AND confidence >= 0.7 ORDER BY "
                        + "embedding <=> $2 LIMIT 5;", 29, 30, 29),
                Arguments.of("https://github.com/example/repo/blob/main/src/main/java/dev/hindsight/Foo.java#L42",
                        21, 21, 32),
                Arguments.of("aGVsbG8gd29ybGQgdGhpcyBpcyBub3QgYSBzZWNyZXQ=", 32, 28, 26),
                Arguments.of("!!!???...,,,;;;:::", 7, 6, 8));
    }

    @ParameterizedTest
    @MethodSource("measured")
    void never_below_any_measured_tokenizer(String text, int cl100k, int o200k, int anthropic) {
        int measured = Math.max(cl100k, Math.max(o200k, anthropic));

        assertThat(TokenEstimator.estimate(text)).isGreaterThanOrEqualTo(measured);
    }

    @ParameterizedTest
    @MethodSource("measured")
    void at_most_about_two_and_a_half_times_the_measured_count(String text, int cl100k, int o200k, int anthropic) {
        int measured = Math.max(cl100k, Math.max(o200k, anthropic));

        assertThat(TokenEstimator.estimate(text)).isLessThanOrEqualTo((int) Math.ceil(measured * 2.5) + 1);
    }

    @Test
    void nothing_costs_nothing() {
        assertThat(TokenEstimator.estimate(null)).isZero();
        assertThat(TokenEstimator.estimate("")).isZero();
        assertThat(TokenEstimator.estimate(" ")).isZero();
    }

    @Test
    void the_words_times_four_thirds_rule_would_have_been_too_low_where_this_is_not() {
        String hash = "3f2a9c1e8b7d6f5a4c3b2a1908f7e6d5c4b3a291";

        int words = hash.split("\\s+").length;
        int naive = Math.max((int) Math.ceil(hash.length() / 4.0), (int) Math.ceil(words * 4 / 3.0));

        assertThat(naive).isLessThan(36);
        assertThat(TokenEstimator.estimate(hash)).isGreaterThanOrEqualTo(36);
    }

    @Test
    void long_text_scales_linearly() {
        String paragraph = "The distiller turns a completed session into memory drafts. ";

        int one = TokenEstimator.estimate(paragraph);
        int hundred = TokenEstimator.estimate(paragraph.repeat(100));

        assertThat(hundred).isBetween(one * 95, one * 100);
    }

    @Test
    void a_lone_surrogate_is_costed_not_rejected() {
        assertThat(TokenEstimator.estimate("a\uD83Db")).isGreaterThanOrEqualTo(3);
    }
}
