package dev.hindsight.query.readmodel;

import dev.hindsight.platform.tenant.TenantId;
import java.time.Instant;
import java.time.LocalDate;

/**
 * Something the live projection committed that a reader may want to re-read: a session, a decision set, a
 * judgement. {@code kind} says which ({@code session}, {@code session_summarized}, {@code trace_judged},
 * {@code message_summarized}, {@code decision_set}, {@code evaluation}, or {@link ChangeCodec#EVERYTHING}); {@code id} is the session or decision set.
 * A session's change carries its trading model-day when the batch started it, so that cached answers to
 * {@code GET /reasoning} whose filters it matches are dropped too.
 */
public record Change(TenantId tenant, String kind, String id, Instant at, TradingDay trading) {

    /** Changes that only invalidate cached reads and are not announced on the live stream. */
    public static final String MESSAGE_SUMMARIZED = "message_summarized";

    public Change(TenantId tenant, String kind, String id, Instant at) {
        this(tenant, kind, id, at, null);
    }

    /** Everything may have changed, of every tenant ({@link ChangeCodec#EVERYTHING}): the tenant is null. */
    public static Change everything(Instant at) {
        return new Change(null, ChangeCodec.EVERYTHING, "", at);
    }

    /** The model-day of a trading session (design.md § Model-days). */
    public record TradingDay(String jobId, LocalDate date, String model) {
    }
}
