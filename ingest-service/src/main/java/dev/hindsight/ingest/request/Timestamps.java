package dev.hindsight.ingest.request;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Reads producer timestamps leniently: ISO-8601 with an offset or {@code Z}, including {@code "2025-10-29 T16:05:10Z"}
 * (a space before the {@code T}, design.md § Trace format) and a space instead of the {@code T}.
 */
public final class Timestamps {

    private static final Pattern SPACE_BEFORE_T = Pattern.compile("^(\\d{4}-\\d{2}-\\d{2})\\s*[T ]\\s*");

    private Timestamps() {
    }

    /** The instant, to the millisecond, or empty when the text is not a timestamp with a zone. */
    public static Optional<Instant> parse(String text) {
        if (text == null) {
            return Optional.empty();
        }
        String normalized = SPACE_BEFORE_T.matcher(text.trim()).replaceFirst("$1T");
        try {
            return Optional.of(OffsetDateTime.parse(normalized).toInstant().truncatedTo(ChronoUnit.MILLIS));
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    /** What a producer should send, for error messages. */
    public static final String EXPECTED = "an ISO-8601 timestamp with offset, e.g. 2025-10-29T16:05:10Z";
}
