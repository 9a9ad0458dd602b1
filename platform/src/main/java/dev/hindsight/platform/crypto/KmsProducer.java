package dev.hindsight.platform.crypto;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import java.util.HashMap;
import java.util.Map;
import org.eclipse.microprofile.config.Config;

/**
 * The KMS of this deployment: the local one (a Vault or cloud KMS would be produced here instead). Its master keys
 * are {@code hindsight.crypto.master-keys.<version>} = 32 random bytes in base64 ({@code openssl rand -base64 32}),
 * new keys wrapped under {@code hindsight.crypto.master-key-version}: secrets of the deployment (from
 * {@code .hindsight/env} locally, a Secret on Kubernetes), never logged. Made on first use, which fails with what is
 * missing when they are not configured.
 */
@ApplicationScoped
class KmsProducer {

    private static final String PREFIX = "hindsight.crypto.master-keys.";

    @Produces
    @ApplicationScoped
    Kms kms(Config config) {
        Map<Integer, String> keys = new HashMap<>();
        for (String name : config.getPropertyNames()) {
            if (name.startsWith(PREFIX)) {
                String version = name.substring(PREFIX.length());
                try {
                    keys.put(Integer.parseInt(version), config.getValue(name, String.class));
                } catch (NumberFormatException e) {
                    throw new IllegalStateException(name + ": a master key's version is a number, not " + version);
                }
            }
        }
        Integer current = config.getOptionalValue("hindsight.crypto.master-key-version", Integer.class)
                .orElseThrow(() -> new IllegalStateException("hindsight.crypto.master-key-version is not set"));
        return new LocalKms(keys, current);
    }
}
