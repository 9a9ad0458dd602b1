package dev.hindsight.platform.crypto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.crypto.tink.Aead;
import dev.hindsight.platform.tenant.TenantId;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LocalKmsTest {

    static final String MASTER_1 = Base64.getEncoder().encodeToString(bytes(1));
    static final String MASTER_2 = Base64.getEncoder().encodeToString(bytes(2));
    private static final TenantId ACME = TenantId.of("acme");
    private static final TenantId GLOBEX = TenantId.of("globex");
    private static final byte[] TEXT = "a key to wrap".getBytes(StandardCharsets.UTF_8);
    private static final byte[] AD = "ad".getBytes(StandardCharsets.UTF_8);

    static byte[] bytes(int seed) {
        byte[] key = new byte[32];
        for (int i = 0; i < key.length; i++) {
            key[i] = (byte) (seed * 31 + i);
        }
        return key;
    }

    @Test
    void aTenantsKekIsTheSameFromTheSameMasterKeyAndNoOtherTenantsOrVersions() throws GeneralSecurityException {
        LocalKms kms = new LocalKms(Map.of(1, MASTER_1, 2, MASTER_2), 2);
        LocalKms again = new LocalKms(Map.of(1, MASTER_1, 2, MASTER_2), 2);

        byte[] sealed = kms.keyEncryptionKey(ACME, 2).encrypt(TEXT, AD);

        assertThat(again.keyEncryptionKey(ACME, 2).decrypt(sealed, AD)).isEqualTo(TEXT);
        for (Aead other : new Aead[] {kms.keyEncryptionKey(GLOBEX, 2), kms.keyEncryptionKey(ACME, 1)}) {
            assertThatThrownBy(() -> other.decrypt(sealed, AD)).isInstanceOf(GeneralSecurityException.class);
        }
        assertThat(kms.currentVersion()).isEqualTo(2);
    }

    @Test
    void aKeyedHashIsTheTenantsOwnAndOutlivesAKekRotation() throws GeneralSecurityException {
        LocalKms before = new LocalKms(Map.of(1, MASTER_1), 1);
        LocalKms rotated = new LocalKms(Map.of(1, MASTER_1, 2, MASTER_2), 2);

        byte[] hash = before.keyedHash(ACME, TEXT);

        assertThat(hash).hasSize(32).isEqualTo(rotated.keyedHash(ACME, TEXT));
        assertThat(before.keyedHash(GLOBEX, TEXT)).as("another tenant's").isNotEqualTo(hash);
        assertThat(before.keyedHash(ACME, AD)).as("other data").isNotEqualTo(hash);
        assertThat(new LocalKms(Map.of(1, MASTER_2), 1).keyedHash(ACME, TEXT)).as("another master key's")
                .isNotEqualTo(hash);
        assertThat(hash).as("not the plain hash anyone can compute")
                .isNotEqualTo(java.security.MessageDigest.getInstance("SHA-256").digest(TEXT));
    }

    @Test
    void aMasterKeyThatIsNotThirtyTwoBase64BytesOrAMissingVersionIsRefusedAtStart() {
        assertThatThrownBy(() -> new LocalKms(Map.of(1, "c2hvcnQ="), 1)).hasMessageContaining("5 bytes");
        assertThatThrownBy(() -> new LocalKms(Map.of(1, "not base64!"), 1)).hasMessageContaining("not base64");
        assertThatThrownBy(() -> new LocalKms(Map.of(1, MASTER_1), 2)).hasMessageContaining("not configured");
        LocalKms kms = new LocalKms(Map.of(1, MASTER_1), 1);
        assertThatThrownBy(() -> kms.keyEncryptionKey(ACME, 3)).hasMessageContaining("version 3");
    }
}
