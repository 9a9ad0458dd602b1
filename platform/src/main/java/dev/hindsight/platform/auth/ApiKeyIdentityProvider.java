package dev.hindsight.platform.auth;

import dev.hindsight.platform.Hashing;
import dev.hindsight.platform.erasure.ErasureLog;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.IdentityProvider;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.TokenAuthenticationRequest;
import io.quarkus.security.runtime.QuarkusPrincipal;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.Optional;

/** Turns a known API key into an identity carrying its tenant and scopes; an unknown key fails authentication. */
@ApplicationScoped
public class ApiKeyIdentityProvider implements IdentityProvider<TokenAuthenticationRequest> {

    private final ApiKeys configured;
    private final KeyRing issued;

    private final ErasureLog erasures;

    public ApiKeyIdentityProvider(AuthConfig config, KeyRing issued, ErasureLog erasures) {
        this.configured = new ApiKeys(config.apiKeys());
        this.issued = issued;
        this.erasures = erasures;
    }

    @Override
    public Class<TokenAuthenticationRequest> getRequestType() {
        return TokenAuthenticationRequest.class;
    }

    @Override
    public Uni<SecurityIdentity> authenticate(TokenAuthenticationRequest request, AuthenticationRequestContext context) {
        // Hash-map lookups on the SHA-256: constant work per request, no blocking. Configured (bootstrap) keys first,
        // then the keys issued at run time.
        String token = request.getToken().getToken();
        if (token == null || token.isBlank()) {
            return Uni.createFrom().failure(new AuthenticationFailedException("Unknown API key"));
        }
        return identity(Hashing.sha256Hex(token.trim()));
    }

    /** The identity of the key with this SHA-256 now, or an authentication failure when it is unknown or not valid. */
    public Uni<SecurityIdentity> identity(String sha256) {
        return grant(sha256).map(grant -> Uni.createFrom().<SecurityIdentity>item(QuarkusSecurityIdentity.builder()
                        .setPrincipal(new QuarkusPrincipal(grant.keyId()))
                        .addRoles(grant.scopes())
                        .addAttribute(TenantContext.TENANT_ATTRIBUTE, grant.tenant())
                        .build()))
                .orElseGet(() -> Uni.createFrom().failure(new AuthenticationFailedException("Unknown API key")));
    }

    /**
     * What the key with this SHA-256 grants now: configured (bootstrap) keys first, then the keys issued at run time;
     * empty when it is unknown, expired or revoked, or its tenant's erasure is complete (ADR 0028: configured keys
     * too, which no revocation reaches).
     */
    public Optional<ApiKeys.Grant> grant(String sha256) {
        return configured.findHash(sha256).or(() -> issued.find(sha256, Instant.now()))
                .filter(grant -> !erasures.tenantErased(grant.tenant()));
    }
}
