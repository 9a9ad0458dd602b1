package dev.hindsight.platform.redact;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * One-megabyte inputs shaped to make a backtracking pattern go quadratic or worse. Each one must come back (a
 * catastrophic pattern would not, and would fail the build by hanging it) with the right answer; none measures time.
 */
class SecretScrubberAdversarialTest {

    private static final int MEGABYTE = 1 << 20;

    private final SecretScrubber scrubber = new SecretScrubber();

    @Test
    void one_long_word() {
        String text = "a".repeat(MEGABYTE);

        assertThat(scrubber.scrub(text)).isEqualTo(text);
    }

    @Test
    void a_long_identifier_that_ends_in_a_key_word() {
        String text = "a_".repeat(MEGABYTE / 2) + "token";

        assertThat(scrubber.scrub(text)).isEqualTo(text);
    }

    @Test
    void many_key_words_without_values_and_a_secret_at_the_end() {
        String text = repeat("password: token= secret apikey:\t", MEGABYTE) + "\npassword=hunter22";

        String scrubbed = scrubber.scrub(text);

        assertThat(scrubbed).endsWith("\npassword=[REDACTED:password]").doesNotContain("hunter22");
    }

    @Test
    void repeated_assignments() {
        String text = repeat("password=", MEGABYTE);

        assertThat(scrubber.scrub(text)).startsWith("password=[REDACTED:password]").doesNotContain("password=password");
    }

    @Test
    void many_private_key_headers_without_an_end_line() {
        String text = repeat("-----BEGIN RSA PRIVATE KEY-----", MEGABYTE) + " tail";

        String scrubbed = scrubber.scrub(text);

        assertThat(scrubbed).doesNotContain("BEGIN").endsWith("[REDACTED:private-key]");
    }

    @Test
    void many_private_key_headers_on_their_own_lines_then_one_end_line() {
        String text = repeat("-----BEGIN PRIVATE KEY-----\n", MEGABYTE) + "-----END PRIVATE KEY-----\nafter";

        String scrubbed = scrubber.scrub(text);

        assertThat(scrubbed).doesNotContain("BEGIN").doesNotContain("END").endsWith("\nafter");
    }

    @Test
    void many_end_lines_of_another_type() {
        String text = "-----BEGIN PRIVATE KEY-----\n" + repeat("-----END CERTIFICATE-----\n", MEGABYTE);

        assertThat(scrubber.scrub(text)).startsWith("[REDACTED:private-key]\n-----END CERTIFICATE-----\n");
    }

    @Test
    void almost_jwts_and_almost_urls() {
        String jwts = repeat("eyJabcd.eyJ.", MEGABYTE);
        String urls = repeat("a://a:a", MEGABYTE);
        String schemes = repeat("ab+", MEGABYTE) + "://";

        assertThat(scrubber.scrub(jwts)).isEqualTo(jwts);
        assertThat(scrubber.scrub(urls)).isEqualTo(urls);
        assertThat(scrubber.scrub(schemes)).isEqualTo(schemes);
    }

    @Test
    void unterminated_quoted_values_and_backslashes() {
        String quotes = "token = \"" + "\\\"".repeat(MEGABYTE / 2);
        String backslashes = "\\".repeat(MEGABYTE);

        // Never closed, so never a value: nothing to redact.
        assertThat(scrubber.scrub(quotes)).isEqualTo(quotes);
        assertThat(scrubber.scrub(backslashes)).isEqualTo(backslashes);
    }

    @Test
    void token_prefixes_everywhere() {
        String text = repeat("xoxb-ghp_sk-AIzaAKIAsk_live_Bearer ", MEGABYTE);

        assertThat(scrubber.scrub(text)).isEqualTo(text);
    }

    @Test
    void random_printable_noise_is_scrubbed_to_a_fixed_point() {
        Random random = new Random(1_048_576);
        String alphabet = "abcxyzABCXYZ0129 _-.:=/@\"'\n\t+eyJAKIAghp_sk-xoxb-token=password:";
        StringBuilder noise = new StringBuilder(MEGABYTE);
        while (noise.length() < MEGABYTE) {
            noise.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }

        String once = scrubber.scrub(noise.toString());

        assertThat(scrubber.scrub(once)).isEqualTo(once);
    }

    private static String repeat(String unit, int length) {
        return unit.repeat(Math.max(1, length / unit.length()));
    }
}
