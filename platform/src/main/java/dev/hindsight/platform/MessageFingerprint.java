package dev.hindsight.platform;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * What makes two messages at the same index "the same message" (ADR 0005, ADR 0019): role, content, tool name and tool input,
 * as one SHA-256. ingest-service sends it instead of the content when it asks whether a message conflicts with one
 * already recorded; query-service computes the same value from the recorded row in SQL ({@link #sql}), so both sides
 * always hash the same bytes: each field as its UTF-8 length (4 bytes, big-endian; -1 when absent) followed by its
 * UTF-8 bytes, so no content can make two different messages hash alike by shifting bytes between fields.
 */
public final class MessageFingerprint {

    private MessageFingerprint() {
    }

    /** The fingerprint as 64 lower-case hex digits. */
    public static String of(String role, String content, String toolName, String toolInput) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            field(sha, role);
            field(sha, content);
            field(sha, toolName);
            field(sha, toolInput);
            return HexFormat.of().formatHex(sha.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every Java platform", e);
        }
    }

    /**
     * The same fingerprint computed by PostgreSQL from a row's columns {@code role, content, tool_name, tool_input}
     * under {@code alias}, as hex text.
     */
    public static String sql(String alias) {
        return "encode(sha256(" + sqlField(alias + ".role") + " || " + sqlField(alias + ".content") + " || "
                + sqlField(alias + ".tool_name") + " || " + sqlField(alias + ".tool_input") + "), 'hex')";
    }

    private static String sqlField(String column) {
        return "(CASE WHEN " + column + " IS NULL THEN int4send(-1) ELSE int4send(octet_length(convert_to(" + column
                + ", 'UTF8'))) || convert_to(" + column + ", 'UTF8') END)";
    }

    private static void field(MessageDigest sha, String value) {
        if (value == null) {
            sha.update(new byte[] {-1, -1, -1, -1});
            return;
        }
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        int length = bytes.length;
        sha.update(new byte[] {(byte) (length >>> 24), (byte) (length >>> 16), (byte) (length >>> 8), (byte) length});
        sha.update(bytes);
    }
}
