package dev.hindsight.query.readmodel;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** Timestamps as the read API writes them: ISO-8601 in UTC with a Z. */
public final class Times {

    private Times() {
    }

    public static String iso(OffsetDateTime time) {
        return time == null ? null
                : DateTimeFormatter.ISO_INSTANT.format(time.withOffsetSameInstant(ZoneOffset.UTC).toInstant());
    }
}
