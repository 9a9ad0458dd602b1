package dev.hindsight.query.console;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * A text as a page shows it: whole when short, otherwise its first {@code limit} characters and a way to see all.
 * Cut on a code point, never inside a surrogate pair.
 */
public record Text(String preview, boolean truncated, int length) {

    private static final DateTimeFormatter WHEN = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'");

    /** A time as pages show it: to the second, in UTC, saying so. */
    public static String when(OffsetDateTime time) {
        return time == null ? null : WHEN.format(time.withOffsetSameInstant(ZoneOffset.UTC));
    }

    public static Text of(String text, int limit) {
        if (text == null) {
            return null;
        }
        if (text.length() <= limit) {
            return new Text(text, false, text.length());
        }
        int end = Character.isHighSurrogate(text.charAt(limit - 1)) ? limit - 1 : limit;
        return new Text(text.substring(0, end), true, text.length());
    }
}
