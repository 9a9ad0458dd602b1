package dev.hindsight.platform;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.UUID;

/**
 * SHA-256 as lower-case hex: the form API keys are configured in and content fingerprints are compared in; and
 * name-based UUIDs, the ids derived from what a thing is rather than drawn at random.
 */
public final class Hashing {

    private Hashing() {
    }

    public static String sha256Hex(String text) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every Java platform", e);
        }
    }

    /**
     * A name-based UUID from the first 16 bytes of {@code hash} (an MD5 or longer digest of the name), with the
     * RFC 4122 version nibble set to {@code version} (3 for MD5, 5 for a SHA) and the IETF variant.
     */
    public static UUID nameBasedUuid(byte[] hash, int version) {
        byte[] bytes = hash.clone();
        bytes[6] = (byte) ((bytes[6] & 0x0f) | (version << 4));
        bytes[8] = (byte) ((bytes[8] & 0x3f) | 0x80);
        long most = 0;
        long least = 0;
        for (int i = 0; i < 8; i++) {
            most = (most << 8) | (bytes[i] & 0xff);
            least = (least << 8) | (bytes[i + 8] & 0xff);
        }
        return new UUID(most, least);
    }
}
