package dev.hindsight.ingest.request;

import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * Session and event ids. Where the producer gives none, ids are derived from what identifies the fact, so that a
 * retried request yields the same ids and downstream projections ignore the repeat.
 */
public final class EventIds {

    public static final String PATTERN = "[A-Za-z0-9][A-Za-z0-9._:-]*";
    public static final String MESSAGE = "must start with a letter or digit and contain only letters, digits, '.', '_', ':' "
            + "and '-'";

    private EventIds() {
    }

    /** Event id from a producer's {@code Idempotency-Key} header, scoped to the tenant and to the item. */
    public static UUID fromIdempotencyKey(String tenant, String key, String item) {
        return name("idempotency-key", tenant, key, item);
    }

    /**
     * A name-based id from the parts that identify a fact. Where the parts include a fingerprint of the content, an
     * identical re-send is the same event while different content under the same natural key is another event (and
     * a conflict downstream).
     */
    public static UUID derived(String... parts) {
        return name(parts);
    }

    private static UUID name(String... parts) {
        return UUID.nameUUIDFromBytes(String.join("\u001f", parts).getBytes(StandardCharsets.UTF_8));
    }
}
