package dev.hindsight.ingest.session;

import dev.hindsight.ingest.session.StartSessionRequest.Trading;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * Session and event ids. Where the producer gives none, ids are derived from what identifies the fact, so that a
 * retried request yields the same ids and downstream projections ignore the repeat.
 */
final class SessionIds {

    static final String PATTERN = "[A-Za-z0-9][A-Za-z0-9._:-]*";
    static final String MESSAGE = "must start with a letter or digit and contain only letters, digits, '.', '_', ':' "
            + "and '-'";

    private SessionIds() {
    }

    /** Seed 000 keeps one session per (job_id, date, model): the same triple always names the same session. */
    static String forTrading(Trading trading) {
        return name("trading", trading.jobId(), trading.date().toString(), trading.model()).toString();
    }

    static UUID sessionStartedEvent(String sessionId) {
        return name("session-started", sessionId);
    }

    /**
     * A message's event id covers its content, so an identical re-send is the same event while a different message
     * at a taken index is a different one (and a conflict downstream).
     */
    static UUID messageEvent(String sessionId, int index, String contentFingerprint) {
        return name("message", sessionId, Integer.toString(index), contentFingerprint);
    }

    /** Event id from a producer's {@code Idempotency-Key} header, scoped to the tenant and to the item. */
    static UUID fromIdempotencyKey(String tenant, String key, String item) {
        return name("idempotency-key", tenant, key, item);
    }

    private static UUID name(String... parts) {
        return UUID.nameUUIDFromBytes(String.join("\u001f", parts).getBytes(StandardCharsets.UTF_8));
    }
}
