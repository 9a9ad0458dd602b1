package dev.hindsight.query.console;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The console's sign-in cookie: {@code v1.<SHA-256 of the API key>.<expiry, epoch seconds>.<HMAC-SHA256 of the rest>}.
 * It names the key by its hash and never holds the key; the HMAC (keyed by a secret every replica shares) proves that
 * this service issued it after the key was presented. Whoever reads a cookie still looks the hash up among the valid
 * keys, so revoking the key signs its browsers out.
 */
public final class ConsoleCookie {

    public static final String NAME = "hindsight_console";
    private static final String VERSION = "v1";
    private static final Pattern SHA256 = Pattern.compile("[0-9a-f]{64}");
    private static final Pattern SECONDS = Pattern.compile("[0-9]{1,12}");

    private final SecretKeySpec key;

    public ConsoleCookie(byte[] secret) {
        if (secret.length < 32) {
            throw new IllegalArgumentException("The console cookie secret must be at least 32 bytes");
        }
        this.key = new SecretKeySpec(secret, "HmacSHA256");
    }

    /** The cookie value for the key with this hash, valid until {@code expiry}. */
    public String issue(String keySha256, Instant expiry) {
        if (!SHA256.matcher(keySha256).matches()) {
            throw new IllegalArgumentException("not a lower-case hex SHA-256: " + keySha256);
        }
        String signed = VERSION + '.' + keySha256 + '.' + expiry.getEpochSecond();
        return signed + '.' + mac(signed);
    }

    /** The key hash a cookie names, when this service issued it and it has not expired at {@code now}. */
    public Optional<String> verify(String value, Instant now) {
        if (value == null || value.length() > 200) {
            return Optional.empty();
        }
        String[] parts = value.split("\\.", -1);
        if (parts.length != 4 || !parts[0].equals(VERSION) || !SHA256.matcher(parts[1]).matches()
                || !SECONDS.matcher(parts[2]).matches()) {
            return Optional.empty();
        }
        String signed = parts[0] + '.' + parts[1] + '.' + parts[2];
        // Constant-time comparison: how much of a forged signature matched must not show in the time taken.
        if (!MessageDigest.isEqual(mac(signed).getBytes(StandardCharsets.US_ASCII),
                parts[3].getBytes(StandardCharsets.US_ASCII))) {
            return Optional.empty();
        }
        if (!now.isBefore(Instant.ofEpochSecond(Long.parseLong(parts[2])))) {
            return Optional.empty();
        }
        return Optional.of(parts[1]);
    }

    private String mac(String signed) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            return Base64.getUrlEncoder().withoutPadding()
                    .encodeToString(mac.doFinal(signed.getBytes(StandardCharsets.US_ASCII)));
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("HmacSHA256 is missing from this JVM", e);
        }
    }
}
