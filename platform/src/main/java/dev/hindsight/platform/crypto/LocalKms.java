package dev.hindsight.platform.crypto;

import com.google.crypto.tink.Aead;
import com.google.crypto.tink.subtle.AesGcmJce;
import com.google.crypto.tink.subtle.Hkdf;
import dev.hindsight.platform.tenant.TenantId;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.Base64;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * A KMS in the service itself: master keys (32 random bytes each, base64) come from configuration or a Kubernetes
 * Secret, one per version; a tenant's KEK at a version is HKDF-SHA256 of that version's master key with the tenant's
 * id as its info, used as an AES-256-GCM key. Anyone who holds a master key can derive every tenant's KEK, so the
 * master keys are secrets of the deployment, like the database's password; a deployment that needs KEKs that never
 * leave a hardware boundary plugs a real KMS in behind {@link Kms}.
 */
public final class LocalKms implements Kms {

    private static final int KEY_BYTES = 32;

    private final Map<Integer, byte[]> masterKeys;
    private final int current;
    private final Map<String, Aead> keks = new ConcurrentHashMap<>();
    private final Map<String, SecretKeySpec> hashKeys = new ConcurrentHashMap<>();

    /**
     * @param masterKeys the master keys by version, each 32 bytes in base64
     * @param current    the version new keys are wrapped under; one of {@code masterKeys}
     */
    public LocalKms(Map<Integer, String> masterKeys, int current) {
        Map<Integer, byte[]> decoded = new TreeMap<>();
        masterKeys.forEach((version, text) -> {
            byte[] key;
            try {
                key = Base64.getDecoder().decode(text.strip());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("master key version " + version + " is not base64");
            }
            if (key.length != KEY_BYTES) {
                throw new IllegalArgumentException("master key version " + version + " has " + key.length
                        + " bytes; it must have " + KEY_BYTES + " (openssl rand -base64 32)");
            }
            decoded.put(version, key);
        });
        if (!decoded.containsKey(current)) {
            throw new IllegalArgumentException("the current master key version " + current + " is not configured");
        }
        this.masterKeys = decoded;
        this.current = current;
    }

    @Override
    public int currentVersion() {
        return current;
    }

    /**
     * HMAC-SHA256 (the JDK's) under HKDF-SHA256 of the lowest configured master key version with
     * {@code hindsight/text-hash/<tenant>} as its info: stable while that version stays configured (retiring it
     * changes every tenant's hashes from then on).
     */
    @Override
    public byte[] keyedHash(TenantId tenant, byte[] data) {
        SecretKeySpec key = hashKeys.computeIfAbsent(tenant.value(), t -> {
            byte[] derived = null;
            try {
                derived = Hkdf.computeHkdf("HMACSHA256", masterKeys.values().iterator().next(), new byte[0],
                        ("hindsight/text-hash/" + t).getBytes(StandardCharsets.UTF_8), KEY_BYTES);
                return new SecretKeySpec(derived, "HmacSHA256");
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException("cannot derive a hashing key", e);
            } finally {
                if (derived != null) {
                    Arrays.fill(derived, (byte) 0);
                }
            }
        });
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            return mac.doFinal(data);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot hash", e);
        }
    }

    @Override
    public Aead keyEncryptionKey(TenantId tenant, int version) {
        byte[] master = masterKeys.get(version);
        if (master == null) {
            throw new IllegalArgumentException("master key version " + version + " is not configured");
        }
        return keks.computeIfAbsent(version + "/" + tenant.value(), k -> {
            byte[] kek = null;
            try {
                kek = Hkdf.computeHkdf("HMACSHA256", master, new byte[0],
                        ("hindsight/kek/" + tenant.value()).getBytes(StandardCharsets.UTF_8), KEY_BYTES);
                return new AesGcmJce(kek);
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException("cannot derive a key-encryption key", e);
            } finally {
                if (kek != null) {
                    Arrays.fill(kek, (byte) 0);
                }
            }
        });
    }
}
