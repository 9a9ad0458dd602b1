package dev.hindsight.memory.erasure;

import dev.hindsight.events.memory.MemoryTextPart;
import io.vertx.mutiny.sqlclient.Row;
import java.time.Instant;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * A memory an erasure reaches, as its row stands, and what becomes of it. The rule (issue #48): a memory whose current
 * text came from an erased session (the sessions of the event that last set its title, its description or its
 * content) is deleted; one that only counts an erased session among its sources survives without it and is re-keyed,
 * since its earlier events hold the erased session's draft; one that only has signals from an erased session is
 * written again without them, and its keys are kept: its earlier events hold the session's id, never its text.
 */
record Affected(UUID id, String project, String origin, String title, String description, String content,
        String outcome, List<String> tags, List<String> sources, String via, Map<MemoryTextPart, List<String>> text,
        Totals totals, Instant recordedAt) {

    /** What becomes of it. */
    enum Fate { DELETED, REKEYED, RESTATED }

    /** Signal counts of each kind and direction. */
    record Totals(long explicitPositive, long explicitNegative, long usage, long outcomePositive,
            long outcomeNegative) {

        static final Totals ZERO = new Totals(0, 0, 0, 0, 0);

        Totals plus(Totals other) {
            return new Totals(explicitPositive + other.explicitPositive, explicitNegative + other.explicitNegative,
                    usage + other.usage, outcomePositive + other.outcomePositive,
                    outcomeNegative + other.outcomeNegative);
        }

        /** These counts less {@code other}'s, none below zero. */
        Totals minus(Totals other) {
            return new Totals(Math.max(0, explicitPositive - other.explicitPositive),
                    Math.max(0, explicitNegative - other.explicitNegative), Math.max(0, usage - other.usage),
                    Math.max(0, outcomePositive - other.outcomePositive),
                    Math.max(0, outcomeNegative - other.outcomeNegative));
        }

        long count() {
            return explicitPositive + explicitNegative + usage + outcomePositive + outcomeNegative;
        }
    }

    /** The columns {@link #of} reads, in its order. */
    static final String COLUMNS = """
            m.id, m.project_id, m.origin, m.title, m.description, m.content, m.outcome, m.tags, m.source_session_ids,
            m.via, m.title_session_ids, m.description_session_ids, m.content_session_ids, m.explicit_positive,
            m.explicit_negative, m.usage_count, m.outcome_positive, m.outcome_negative, m.recorded_at""";

    static Affected of(Row row) {
        Map<MemoryTextPart, List<String>> text = new EnumMap<>(MemoryTextPart.class);
        text.put(MemoryTextPart.TITLE, Arrays.asList(row.getArrayOfStrings("title_session_ids")));
        text.put(MemoryTextPart.DESCRIPTION, Arrays.asList(row.getArrayOfStrings("description_session_ids")));
        text.put(MemoryTextPart.CONTENT, Arrays.asList(row.getArrayOfStrings("content_session_ids")));
        return new Affected(row.getUUID("id"), row.getString("project_id"), row.getString("origin"),
                row.getString("title"), row.getString("description"), row.getString("content"),
                row.getString("outcome"), Arrays.asList(row.getArrayOfStrings("tags")),
                Arrays.asList(row.getArrayOfStrings("source_session_ids")), row.getString("via"), text,
                new Totals(row.getLong("explicit_positive"), row.getLong("explicit_negative"),
                        row.getLong("usage_count"), row.getLong("outcome_positive"), row.getLong("outcome_negative")),
                row.getOffsetDateTime("recorded_at").toInstant());
    }

    Fate fate(Set<String> erased) {
        if (text.values().stream().flatMap(List::stream).anyMatch(erased::contains)) {
            return Fate.DELETED;
        }
        return sources.stream().anyMatch(erased::contains) ? Fate.REKEYED : Fate.RESTATED;
    }
}
