package dev.hindsight.platform.crypto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hindsight.platform.crypto.DataKeys.DataKey;
import dev.hindsight.platform.crypto.DataKeys.Scope;
import dev.hindsight.platform.tenant.TenantId;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class SealingTest {

    private static final TenantId ACME = TenantId.of("acme");
    private static final LocalKms KMS = new LocalKms(Map.of(1, LocalKmsTest.MASTER_1), 1);
    private static final UUID EVENT = UUID.fromString("00000000-0000-0000-0000-000000000007");
    private static final byte[] TEXT = "my e-mail is anna.berg@example.com".getBytes(StandardCharsets.UTF_8);

    private static DataKey key() {
        return DataKeys.create(ACME, Scope.SESSION, KMS.keyEncryptionKey(ACME, 1)).key();
    }

    @Test
    void aSealedPayloadHoldsNoneOfItsTextAndOpensToExactlyIt() throws GeneralSecurityException {
        DataKey key = key();

        byte[] sealed = Sealing.seal(key, TEXT, ACME, "session-1", EVENT);

        assertThat(new String(sealed, StandardCharsets.ISO_8859_1)).doesNotContain("anna.berg", "e-mail");
        assertThat(Sealing.open(key, sealed, ACME, "session-1", EVENT)).isEqualTo(TEXT);
        assertThat(Sealing.seal(key, TEXT, ACME, "session-1", EVENT)).as("a fresh nonce each time")
                .isNotEqualTo(sealed);
    }

    @Test
    void aSealedPayloadMovedToAnotherSessionEventOrKeyOrChangedDoesNotOpen() {
        DataKey key = key();
        byte[] sealed = Sealing.seal(key, TEXT, ACME, "session-1", EVENT);
        byte[] changed = sealed.clone();
        changed[10] ^= 1;

        assertThatThrownBy(() -> Sealing.open(key, sealed, ACME, "session-2", EVENT))
                .isInstanceOf(GeneralSecurityException.class);
        assertThatThrownBy(() -> Sealing.open(key, sealed, ACME, "session-1", UUID.randomUUID()))
                .isInstanceOf(GeneralSecurityException.class);
        assertThatThrownBy(() -> Sealing.open(key(), sealed, ACME, "session-1", EVENT))
                .isInstanceOf(GeneralSecurityException.class);
        assertThatThrownBy(() -> Sealing.open(key, changed, ACME, "session-1", EVENT))
                .isInstanceOf(GeneralSecurityException.class);
    }

    @Test
    void aKeyIsOnlyEverUsedForItsOwnTenant() {
        DataKey key = key();

        assertThatThrownBy(() -> Sealing.seal(key, TEXT, TenantId.of("globex"), "session-1", EVENT))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not tenant globex's");
    }
}
