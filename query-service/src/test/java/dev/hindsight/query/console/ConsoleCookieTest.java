package dev.hindsight.query.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hindsight.platform.Hashing;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Given a cookie, when a request carries it, then only one this service signed, unexpired and unaltered, counts. */
class ConsoleCookieTest {

    private static final Instant NOW = Instant.parse("2026-11-26T10:00:00Z");
    private static final String KEY_HASH = Hashing.sha256Hex("test-key-tenant-a");
    private final ConsoleCookie cookie = new ConsoleCookie(secret("the-shared-console-secret-of-32-bytes"));

    @Test
    void aCookieItIssuedNamesTheKeyHashUntilItExpires() {
        String value = cookie.issue(KEY_HASH, NOW.plusSeconds(3600));

        assertThat(value).startsWith("v1." + KEY_HASH + "." + NOW.plusSeconds(3600).getEpochSecond() + ".")
                .doesNotContain("test-key-tenant-a");
        assertThat(cookie.verify(value, NOW)).contains(KEY_HASH);
        assertThat(cookie.verify(value, NOW.plusSeconds(3599))).contains(KEY_HASH);
        assertThat(cookie.verify(value, NOW.plusSeconds(3600))).isEmpty();
    }

    @Test
    void changingAnyPartBreaksTheSignature() {
        String value = cookie.issue(KEY_HASH, NOW.plusSeconds(3600));
        String[] parts = value.split("\\.");
        String otherKey = Hashing.sha256Hex("test-key-tenant-b");
        String later = Long.toString(NOW.plusSeconds(86_400 * 365).getEpochSecond());

        assertThat(cookie.verify(String.join(".", parts[0], otherKey, parts[2], parts[3]), NOW)).isEmpty();
        assertThat(cookie.verify(String.join(".", parts[0], parts[1], later, parts[3]), NOW)).isEmpty();
        assertThat(cookie.verify(String.join(".", "v2", parts[1], parts[2], parts[3]), NOW)).isEmpty();
        char last = parts[3].charAt(parts[3].length() - 1);
        String flipped = parts[3].substring(0, parts[3].length() - 1) + (last == 'A' ? 'B' : 'A');
        assertThat(cookie.verify(String.join(".", parts[0], parts[1], parts[2], flipped), NOW)).isEmpty();
    }

    @Test
    void anotherSecretsCookieDoesNotCount() {
        String forged = new ConsoleCookie(secret("an-attacker-chosen-secret-of-32-bytes!"))
                .issue(KEY_HASH, NOW.plusSeconds(3600));

        assertThat(cookie.verify(forged, NOW)).isEmpty();
    }

    @Test
    void malformedValuesAreNotCookies() {
        for (String value : new String[] {null, "", "v1", "v1...", "v1." + KEY_HASH + ".soon.sig",
                "v1." + KEY_HASH.toUpperCase() + ".1.sig", "v1." + KEY_HASH + ".1.sig.extra", "x".repeat(500)}) {
            assertThat(cookie.verify(value, NOW)).as(String.valueOf(value)).isEmpty();
        }
    }

    @Test
    void aShortSecretIsRefused() {
        assertThatThrownBy(() -> new ConsoleCookie(secret("short"))).isInstanceOf(IllegalArgumentException.class);
    }

    private static byte[] secret(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
