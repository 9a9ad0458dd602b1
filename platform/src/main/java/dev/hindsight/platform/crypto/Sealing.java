package dev.hindsight.platform.crypto;

import dev.hindsight.platform.tenant.TenantId;
import java.security.GeneralSecurityException;
import java.util.UUID;

/**
 * Seals an event's payload under a data key, bound to its tenant, Kafka key and event id (ADR 0027): a sealed payload
 * copied into another tenant's, session's or event's record does not open there. The key must be the event's tenant's.
 */
public final class Sealing {

    private Sealing() {
    }

    /** The payload, encrypted and authenticated under {@code key}. */
    public static byte[] seal(DataKeys.DataKey key, byte[] payload, TenantId tenant, String kafkaKey, UUID eventId) {
        requireTenant(key, tenant);
        try {
            return key.aead().encrypt(payload, associatedData(tenant, kafkaKey, eventId));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot seal a payload", e);
        }
    }

    /**
     * The payload {@link #seal} sealed.
     *
     * @throws GeneralSecurityException when the ciphertext was changed, or was sealed under another key or for another
     *                                  tenant, Kafka key or event
     */
    public static byte[] open(DataKeys.DataKey key, byte[] sealed, TenantId tenant, String kafkaKey, UUID eventId)
            throws GeneralSecurityException {
        requireTenant(key, tenant);
        return key.aead().decrypt(sealed, associatedData(tenant, kafkaKey, eventId));
    }

    private static void requireTenant(DataKeys.DataKey key, TenantId tenant) {
        if (!key.tenant().equals(tenant)) {
            throw new IllegalArgumentException("data key " + key.keyId() + " is not tenant " + tenant + "'s");
        }
    }

    private static byte[] associatedData(TenantId tenant, String kafkaKey, UUID eventId) {
        return DataKeys.framed("hindsight/sealed/v1", tenant.value(), kafkaKey, eventId.toString());
    }
}
