package dev.hindsight.platform.crypto;

import com.google.crypto.tink.Aead;
import dev.hindsight.platform.tenant.TenantId;
import java.security.GeneralSecurityException;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Opens data keys by id for the events sealed under them (ADR 0027): the key's wrapping from the {@link DataKeyRing},
 * unwrapped by the key above it (the tenant's KEK from the {@link Kms}, or a parent data key, itself opened the same
 * way). A key the ring does not know yet is looked for again once everything the key topic holds has been read
 * ({@code readToEnd}): only then is it {@link Missing}, which a consumer waits on and never treats as erased. A key
 * destroyed, or under a destroyed key, is {@link Erased}. Opened keys are kept (they are small) until their key or one
 * above it is destroyed ({@link #forget}).
 */
public final class DataKeyVault {

    /** What opening a key gave. */
    public sealed interface Opening permits Open, Erased, Missing {
    }

    /** The key, ready to open what it sealed. */
    public record Open(DataKeys.DataKey key) implements Opening {
    }

    /** The key or one above it was destroyed: what it sealed is erased. */
    public record Erased(String keyId) implements Opening {
    }

    /** The key is not on the key topic even read to its end: wait and ask again. */
    public record Missing(String keyId) implements Opening {
    }

    private final DataKeyRing ring;
    private final Kms kms;
    private final Supplier<CompletionStage<Void>> readToEnd;
    private final Map<String, DataKeys.DataKey> opened = new ConcurrentHashMap<>();

    public DataKeyVault(DataKeyRing ring, Kms kms, Supplier<CompletionStage<Void>> readToEnd) {
        this.ring = ring;
        this.kms = kms;
        this.readToEnd = readToEnd;
    }

    /**
     * The key {@code keyId} of {@code tenant}, opened. Completes with {@link Erased} or {@link Missing} rather than
     * failing; fails only when the KMS is away ({@link Kms.KmsUnavailableException}), when a wrapping does not open
     * (a wrong master key configured) or when the key is another tenant's.
     */
    public CompletionStage<Opening> open(TenantId tenant, String keyId) {
        DataKeyRing.Entry entry = ring.get(keyId);
        if (entry == null) {
            return readToEnd.get().thenCompose(read -> ring.get(keyId) == null
                    ? CompletableFuture.completedFuture(new Missing(keyId)) : open(tenant, keyId));
        }
        if (entry instanceof DataKeyRing.Destroyed) {
            opened.remove(keyId);
            return CompletableFuture.completedFuture(new Erased(keyId));
        }
        DataKeyRing.Known known = (DataKeyRing.Known) entry;
        if (!known.wrapped().tenant().equals(tenant)) {
            // Another tenant's key named by this tenant's event: never open it for them.
            return CompletableFuture.failedFuture(new GeneralSecurityException("data key " + keyId
                    + " is not tenant " + tenant + "'s"));
        }
        if (known.parentKeyId() == null) {
            DataKeys.DataKey cached = opened.get(keyId);
            try {
                return CompletableFuture.completedFuture(cached != null ? new Open(cached)
                        : unwrap(keyId, known, () -> kms.keyEncryptionKey(tenant, known.kekVersion())));
            } catch (RuntimeException e) {
                return CompletableFuture.failedFuture(e);
            }
        }
        // Under a parent (a subject's key): the parent is asked every time, so that its destruction erases this one.
        return open(tenant, known.parentKeyId()).thenApply(above -> {
            if (!(above instanceof Open parent)) {
                // Erased above: this key is erased too. Missing above: waited on as this one would be.
                return above instanceof Erased ? new Erased(keyId) : above;
            }
            DataKeys.DataKey cached = opened.get(keyId);
            return cached != null ? new Open(cached) : unwrap(keyId, known, () -> parent.key().aead());
        });
    }

    private Opening unwrap(String keyId, DataKeyRing.Known known, Supplier<Aead> wrapping) {
        try {
            DataKeys.DataKey key = DataKeys.unwrap(known.wrapped(), wrapping.get());
            opened.put(keyId, key);
            return new Open(key);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("data key " + keyId + " does not unwrap: is the right master key "
                    + "configured?", e);
        }
    }

    /** Drops an opened key (its destruction was read): the next {@link #open} asks the ring again. */
    public void forget(String keyId) {
        opened.remove(keyId);
    }
}
