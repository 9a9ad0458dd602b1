package dev.hindsight.platform.auth;

import dev.hindsight.platform.Hashing;
import dev.hindsight.platform.tenant.TenantId;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/** Looks up a bearer token among the configured keys (the bootstrap keys) by its SHA-256. */
public final class ApiKeys {

    private final Map<String, Grant> byHash;

    /** What a valid key grants: who it is, which tenant, which scopes. */
    public record Grant(String keyId, TenantId tenant, java.util.Set<String> scopes) {
    }

    public ApiKeys(Map<String, AuthConfig.ApiKey> configured) {
        this.byHash = configured.entrySet().stream()
                .collect(Collectors.toUnmodifiableMap(
                        e -> e.getValue().sha256().trim().toLowerCase(Locale.ROOT),
                        e -> new Grant(e.getKey(), TenantId.of(e.getValue().tenant()), e.getValue().scopes())));
    }

    /** The grant for a token, or empty when the token is unknown or blank. */
    public Optional<Grant> find(String token) {
        if (token == null || token.isBlank()) {
            return Optional.empty();
        }
        return findHash(Hashing.sha256Hex(token.trim()));
    }

    /** The grant for a token's hex SHA-256. */
    public Optional<Grant> findHash(String sha256) {
        return Optional.ofNullable(byHash.get(sha256));
    }
}
