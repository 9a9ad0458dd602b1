package dev.hindsight.platform.crypto;

import com.google.crypto.tink.Aead;
import com.google.crypto.tink.KeysetHandle;
import com.google.crypto.tink.RegistryConfiguration;
import com.google.crypto.tink.TinkProtoKeysetFormat;
import com.google.crypto.tink.aead.AeadConfig;
import com.google.crypto.tink.aead.PredefinedAeadParameters;
import dev.hindsight.platform.tenant.TenantId;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.UUID;

/**
 * Data keys (ADR 0027): AES-256-GCM keys, each wrapped by the key above it in its tenant's hierarchy (the tenant's KEK,
 * or a data subject's key for a session or memory about that person), with associated data naming the key, its tenant
 * and its scope, so that a wrapped key cannot be passed off as another's. A key is made once, published wrapped, and
 * unwrapped by whoever reads it with the key above it.
 */
public final class DataKeys {

    static {
        try {
            AeadConfig.register();
        } catch (GeneralSecurityException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** What a data key protects: what destroying it erases. */
    public enum Scope {
        /** A person a producer named as what its sessions are about: every session and memory wrapped under it. */
        SUBJECT,
        /** One session (or decision set): its events. */
        SESSION,
        /** A trace not yet known to belong to a conversation (its spans). */
        TRACE,
        /** One memory and its vectors. */
        MEMORY
    }

    /** A data key as it is published: its id, whose it is, and its key material wrapped by the key above it. */
    public record Wrapped(String keyId, TenantId tenant, Scope scope, byte[] wrapped) {
    }

    /** A data key ready to seal and open. */
    public record DataKey(String keyId, TenantId tenant, Scope scope, Aead aead) {
    }

    private DataKeys() {
    }

    /** A new data key of {@code tenant} for {@code scope}, wrapped by {@code parent}; answers it and its wrapping. */
    public static Created create(TenantId tenant, Scope scope, Aead parent) {
        String keyId = UUID.randomUUID().toString();
        try {
            KeysetHandle keyset = KeysetHandle.generateNew(PredefinedAeadParameters.AES256_GCM);
            byte[] wrapped = TinkProtoKeysetFormat.serializeEncryptedKeyset(keyset, parent,
                    associatedData(keyId, tenant, scope));
            Aead aead = keyset.getPrimitive(RegistryConfiguration.get(), Aead.class);
            return new Created(new DataKey(keyId, tenant, scope, aead), new Wrapped(keyId, tenant, scope, wrapped));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot make a data key", e);
        }
    }

    /** A key just made: to seal with, and to publish. */
    public record Created(DataKey key, Wrapped wrapped) {
    }

    /**
     * The data key {@code wrapped} holds, unwrapped with {@code parent}.
     *
     * @throws GeneralSecurityException when {@code parent} is not the key that wrapped it, or the wrapping was
     *                                  changed or names another key, tenant or scope
     */
    public static DataKey unwrap(Wrapped wrapped, Aead parent) throws GeneralSecurityException {
        KeysetHandle keyset = TinkProtoKeysetFormat.parseEncryptedKeyset(wrapped.wrapped(), parent,
                associatedData(wrapped.keyId(), wrapped.tenant(), wrapped.scope()));
        return new DataKey(wrapped.keyId(), wrapped.tenant(), wrapped.scope(),
                keyset.getPrimitive(RegistryConfiguration.get(), Aead.class));
    }

    /** The same key wrapped by another parent (a rotated KEK): the key id and material are unchanged. */
    public static Wrapped rewrap(Wrapped wrapped, Aead oldParent, Aead newParent) throws GeneralSecurityException {
        byte[] associated = associatedData(wrapped.keyId(), wrapped.tenant(), wrapped.scope());
        KeysetHandle keyset = TinkProtoKeysetFormat.parseEncryptedKeyset(wrapped.wrapped(), oldParent, associated);
        return new Wrapped(wrapped.keyId(), wrapped.tenant(), wrapped.scope(),
                TinkProtoKeysetFormat.serializeEncryptedKeyset(keyset, newParent, associated));
    }

    /** The parts, each length-prefixed so that no two different lists of parts give the same bytes. */
    static byte[] framed(String... parts) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            for (String part : parts) {
                byte[] utf8 = part.getBytes(StandardCharsets.UTF_8);
                out.writeInt(utf8.length);
                out.write(utf8);
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return bytes.toByteArray();
    }

    private static byte[] associatedData(String keyId, TenantId tenant, Scope scope) {
        return framed("hindsight/data-key/v1", keyId, tenant.value(), scope.name());
    }
}
