package dev.hindsight.platform.crypto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hindsight.platform.tenant.TenantId;
import io.smallrye.config.EnvConfigSource;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.eclipse.microprofile.config.Config;
import org.junit.jupiter.api.Test;

class KmsProducerTest {

    private static final byte[] AD = new byte[0];

    @Test
    void masterKeysGivenInTheEnvironmentAreFoundAndRetiredVersionsMayBeAbsent() throws Exception {
        Config config = new SmallRyeConfigBuilder().withSources(
                new EnvConfigSource(Map.of("HINDSIGHT_CRYPTO_MASTER_KEYS_3", LocalKmsTest.MASTER_2,
                        "HINDSIGHT_CRYPTO_MASTER_KEY_VERSION", "3"), 300),
                new PropertiesConfigSource(Map.of("hindsight.crypto.master-keys.2", LocalKmsTest.MASTER_1), "test",
                        100)).build();

        LocalKms kms = KmsProducer.of(config);

        assertThat(kms.currentVersion()).isEqualTo(3);
        byte[] text = "wrapped".getBytes(StandardCharsets.UTF_8);
        LocalKms expected = new LocalKms(Map.of(2, LocalKmsTest.MASTER_1, 3, LocalKmsTest.MASTER_2), 3);
        TenantId acme = TenantId.of("acme");
        assertThat(kms.keyEncryptionKey(acme, 3).decrypt(expected.keyEncryptionKey(acme, 3).encrypt(text, AD), AD))
                .isEqualTo(text);
        assertThat(kms.keyEncryptionKey(acme, 2).decrypt(expected.keyEncryptionKey(acme, 2).encrypt(text, AD), AD))
                .isEqualTo(text);
    }

    @Test
    void withoutAVersionOrItsKeyItSaysWhatIsMissing() {
        assertThatThrownBy(() -> KmsProducer.of(new SmallRyeConfigBuilder().build()))
                .hasMessageContaining("hindsight.crypto.master-key-version is not set");
        assertThatThrownBy(() -> KmsProducer.of(new SmallRyeConfigBuilder().withSources(new PropertiesConfigSource(
                Map.of("hindsight.crypto.master-key-version", "1"), "test", 100)).build()))
                .hasMessageContaining("version 1 is not configured");
    }
}
