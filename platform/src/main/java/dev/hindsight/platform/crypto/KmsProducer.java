package dev.hindsight.platform.crypto;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import java.util.HashMap;
import java.util.Map;
import org.eclipse.microprofile.config.Config;

/**
 * The KMS of this deployment: the local one (a Vault or cloud KMS would be produced here instead). Its master keys
 * are {@code hindsight.crypto.master-keys.<version>} = 32 random bytes in base64 ({@code openssl rand -base64 32}),
 * new keys wrapped under {@code hindsight.crypto.master-key-version}; versions below it are looked up too (a retired
 * one may be absent). Secrets of the deployment, given in the environment ({@code HINDSIGHT_CRYPTO_MASTER_KEYS_1}:
 * {@code ./hindsight up} generates it into {@code .hindsight/env}), never on a command line, never logged. Made on
 * first use, which fails with what is missing when they are not configured.
 */
@ApplicationScoped
class KmsProducer {

    @Produces
    @ApplicationScoped
    Kms kms(Config config) {
        return of(config);
    }

    static LocalKms of(Config config) {
        int current = config.getOptionalValue("hindsight.crypto.master-key-version", Integer.class)
                .orElseThrow(() -> new IllegalStateException("hindsight.crypto.master-key-version is not set"));
        Map<Integer, String> keys = new HashMap<>();
        // Looked up by name, not found among the property names: keys from the environment are named there
        // HINDSIGHT_CRYPTO_MASTER_KEYS_<n>, and only a lookup maps them to this name.
        for (int version = 1; version <= current; version++) {
            int v = version;
            config.getOptionalValue("hindsight.crypto.master-keys." + v, String.class).ifPresent(k -> keys.put(v, k));
        }
        return new LocalKms(keys, current);
    }
}
