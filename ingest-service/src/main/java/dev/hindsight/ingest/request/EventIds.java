package dev.hindsight.ingest.request;

import dev.hindsight.platform.Hashing;
import dev.hindsight.platform.tenant.TenantId;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.UUID;

/**
 * Session and event ids. Where the producer gives none, ids are derived from what identifies the fact, so that a
 * retried request yields the same ids and downstream projections ignore the repeat.
 */
public final class EventIds {

    // Anchored: the published OpenAPI document carries it, and JSON Schema patterns match anywhere in a value.
    public static final String PATTERN = "^[A-Za-z0-9][A-Za-z0-9._:-]*$";
    public static final String MESSAGE = "must start with a letter or digit and contain only letters, digits, '.', '_', ':' "
            + "and '-'";

    private EventIds() {
    }

    /**
     * Whether {@code id} matches {@link #PATTERN}, without a regex: the batch endpoint checks a session id per item,
     * and a loop over the characters avoids running the regex engine's character-class predicates for each one
     * (docs/benchmarks.md).
     */
    public static boolean isWellFormed(String id) {
        if (id == null || id.isEmpty() || !isLetterOrDigit(id.charAt(0))) {
            return false;
        }
        for (int i = 1; i < id.length(); i++) {
            char c = id.charAt(i);
            if (!isLetterOrDigit(c) && c != '.' && c != '_' && c != ':' && c != '-') {
                return false;
            }
        }
        return true;
    }

    private static boolean isLetterOrDigit(char c) {
        return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    }

    /** Event id from a producer's {@code Idempotency-Key} header, scoped to the tenant and to the item. */
    public static UUID fromIdempotencyKey(TenantId tenant, String key, String item) {
        return name("idempotency-key", tenant.value(), key, item);
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
        Digest digest = digest(parts[0]);
        for (int i = 1; i < parts.length; i++) {
            digest.add(parts[i]);
        }
        return digest.uuid();
    }

    /** Starts a name-based id over {@code first} and whatever is added: one pass, no intermediate string. */
    public static Digest digest(String first) {
        return new Digest(first);
    }

    /**
     * Streams the parts of a fact into MD5 and yields the version-3 UUID {@link UUID#nameUUIDFromBytes} would give
     * for the parts joined by U+001F, without building that string (message contents can be a megabyte).
     */
    public static final class Digest {
        private static final byte SEPARATOR = 0x1f;
        private final MessageDigest md5;

        private Digest(String first) {
            try {
                md5 = MessageDigest.getInstance("MD5");
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException("MD5 is required by every Java platform", e);
            }
            md5.update(String.valueOf(first).getBytes(StandardCharsets.UTF_8));
        }

        /** Adds one part ({@code null} is written as the text null, as String.valueOf would). */
        public Digest add(Object part) {
            md5.update(SEPARATOR);
            md5.update(String.valueOf(part).getBytes(StandardCharsets.UTF_8));
            return this;
        }

        public UUID uuid() {
            return Hashing.nameBasedUuid(md5.digest(), 3);
        }
    }
}
