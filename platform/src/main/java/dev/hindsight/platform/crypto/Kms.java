package dev.hindsight.platform.crypto;

import com.google.crypto.tink.Aead;
import dev.hindsight.platform.tenant.TenantId;

/**
 * Where the tenants' key-encryption keys (KEKs) are (ADR 0027): a KEK wraps the data keys at the top of a tenant's
 * hierarchy and never leaves the KMS in a real one (Vault's transit engine, a cloud KMS: the {@link Aead} it answers
 * calls it). Versions let a KEK rotate: new keys are wrapped under {@link #currentVersion()}, and a key wrapped under
 * an older version still unwraps while that version is configured.
 */
public interface Kms {

    /** The version new data keys are wrapped under. */
    int currentVersion();

    /**
     * The tenant's KEK at {@code version}.
     *
     * @throws KmsUnavailableException when the KMS cannot be reached now (a caller waits and retries)
     * @throws IllegalArgumentException when no such version is configured (a key wrapped under it cannot be unwrapped)
     */
    Aead keyEncryptionKey(TenantId tenant, int version);

    /**
     * A keyed hash (HMAC-SHA256) of {@code data} under the tenant's hashing key: for a value derived from personal text
     * that must compare equal across events (a decision set's {@code question_hash}) without letting anyone who reads
     * it test a guess of the text. Unlike a KEK it does not rotate: the same data hashes the same for good.
     *
     * @throws KmsUnavailableException when the KMS cannot be reached now
     */
    byte[] keyedHash(TenantId tenant, byte[] data);

    /** The KMS could not answer now; nothing is wrong with the key asked for. */
    final class KmsUnavailableException extends RuntimeException {
        public KmsUnavailableException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
