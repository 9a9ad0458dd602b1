package dev.hindsight.platform.auth;

import dev.hindsight.events.keys.ApiKeyIssued;
import dev.hindsight.events.keys.ApiKeyRevoked;
import dev.hindsight.events.keys.KeyEvent;
import dev.hindsight.platform.tenant.TenantId;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The API keys issued at run time, as {@code hindsight.keys.v1} says (docs/design.md, "API keys"): applied event by
 * event by {@link KeyFeed} on every replica of every service, and at once by the replica that issued a change. Only
 * hashes are held. A key works from its issue until it expires or its revocation takes effect.
 */
@ApplicationScoped
public class KeyRing {

    /** One issued key as the topic describes it; never its secret. */
    public record Key(String keyId, TenantId tenant, String sha256, Set<String> scopes, String name, Instant issuedAt,
            Instant expiresAt, Instant revokedAt, String replaces) {

        /** Whether the key authenticates requests at {@code now}. */
        public boolean validAt(Instant now) {
            return (expiresAt == null || now.isBefore(expiresAt)) && (revokedAt == null || now.isBefore(revokedAt));
        }
    }

    private final Map<String, Key> byId = new ConcurrentHashMap<>();
    private final Map<String, String> idByHash = new ConcurrentHashMap<>();

    /** Applies one event of the topic; applying one twice changes nothing. */
    public void apply(KeyEvent event) {
        String keyId = event.getKeyId();
        if (event.getPayload() instanceof ApiKeyIssued issued) {
            String sha = issued.getSha256().trim().toLowerCase(Locale.ROOT);
            Key key = new Key(keyId, TenantId.of(event.getHeader().getTenantId()), sha, Set.copyOf(issued.getScopes()),
                    issued.getName(), event.getHeader().getRecordedAt(), issued.getExpiresAt(), null,
                    issued.getReplaces());
            // An id is issued once: a second issue under it (a replayed or forged event) changes nothing.
            if (byId.putIfAbsent(keyId, key) == null) {
                idByHash.putIfAbsent(sha, keyId);
            }
        } else if (event.getPayload() instanceof ApiKeyRevoked revoked) {
            byId.computeIfPresent(keyId, (id, key) -> key.revokedAt() != null
                    && !key.revokedAt().isAfter(revoked.getEffectiveAt()) ? key
                    : new Key(key.keyId(), key.tenant(), key.sha256(), key.scopes(), key.name(), key.issuedAt(),
                            key.expiresAt(), revoked.getEffectiveAt(), key.replaces()));
        } else {
            throw new IllegalArgumentException("unknown key event " + event.getPayload());
        }
    }

    /** What the key with this hash grants at {@code now}: empty when it is unknown, expired or revoked. */
    public Optional<ApiKeys.Grant> find(String sha256, Instant now) {
        String keyId = idByHash.get(sha256);
        Key key = keyId == null ? null : byId.get(keyId);
        return key == null || !key.sha256().equals(sha256) || !key.validAt(now) ? Optional.empty()
                : Optional.of(new ApiKeys.Grant(key.keyId(), key.tenant(), key.scopes()));
    }

    /** One key, whatever its state. */
    public Optional<Key> get(String keyId) {
        return Optional.ofNullable(byId.get(keyId));
    }

    /** Every key of {@code tenant}, newest first, whatever its state. */
    public List<Key> ofTenant(TenantId tenant) {
        return byId.values().stream().filter(k -> k.tenant().equals(tenant))
                .sorted(Comparator.comparing(Key::issuedAt).reversed().thenComparing(Key::keyId)).toList();
    }
}
