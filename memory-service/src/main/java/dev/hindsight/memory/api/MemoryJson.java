package dev.hindsight.memory.api;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.hindsight.memory.bank.MemoryRow;
import dev.hindsight.platform.redact.SecretScrubber;
import java.time.Instant;
import java.util.List;

/** A memory as the API returns it: text scrubbed of secrets (design.md § Memories), confidence computed now. */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record MemoryJson(String id, String projectId, String title, String description, String content,
        String outcome, String origin, double confidence, long usageCount, List<String> tags,
        List<String> sourceSessionIds, Signals signals, Double similarity, Boolean probation, Instant createdAt,
        Instant updatedAt) {

    /** Scrubs everything the API and the MCP tools return (thread-safe, stateless). */
    public static final SecretScrubber SCRUBBER = new SecretScrubber();

    /** The evidence behind the confidence: totals of every signal ever recorded (recent and rolled up). */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Signals(long explicitHelpful, long explicitUnhelpful, long usage, long outcomeSucceeded,
            long outcomeFailed) {
    }

    /** A memory read by id or listed: no similarity, no probation. */
    public static MemoryJson of(MemoryRow m) {
        return of(m, null, null);
    }

    /** A search result: its similarity, and whether it is shown on probation. */
    public static MemoryJson of(MemoryRow m, Double similarity, Boolean probation) {
        return new MemoryJson(m.id().toString(), m.project(), SCRUBBER.scrub(m.title()),
                SCRUBBER.scrub(m.description()), SCRUBBER.scrub(m.content()), m.outcome(),
                m.origin().name().toLowerCase(java.util.Locale.ROOT), round(m.confidence()), m.counts().usage(), m.tags(),
                m.sourceSessionIds(), new Signals(m.counts().explicitPositive(), m.counts().explicitNegative(),
                        m.counts().usage(), m.counts().outcomePositive(), m.counts().outcomeNegative()),
                similarity == null ? null : round(similarity), probation, m.createdAt(), m.updatedAt());
    }

    /** Four decimals: enough to see a signal move confidence, and stable in JSON. */
    public static double round(double value) {
        return Math.round(value * 10_000d) / 10_000d;
    }
}
