package dev.hindsight.platform.auth;

import io.smallrye.config.ConfigMapping;
import java.util.Map;
import java.util.Set;

/**
 * API keys this service accepts. Only the SHA-256 of a key is configured, never the key itself, so a leaked
 * configuration does not leak credentials.
 *
 * <pre>
 * hindsight.auth.api-keys.demo.sha256=5e88...   # hex SHA-256 of the bearer token
 * hindsight.auth.api-keys.demo.tenant=demo
 * hindsight.auth.api-keys.demo.scopes=ingest,read
 * </pre>
 */
@ConfigMapping(prefix = "hindsight.auth")
interface AuthConfig {

    /** Accepted keys by key id; the key id becomes the principal name and the event's producer identity. */
    Map<String, ApiKey> apiKeys();

    /** One API key: its hash, the tenant it belongs to and what it may do. */
    interface ApiKey {
        /** Lower-case hex SHA-256 of the token. */
        String sha256();

        /** Tenant every request made with this key acts for. */
        String tenant();

        /** Scopes granted, checked as roles: {@code ingest}, {@code read}, {@code admin}. */
        Set<String> scopes();
    }
}
