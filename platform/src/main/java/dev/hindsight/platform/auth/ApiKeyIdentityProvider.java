package dev.hindsight.platform.auth;

import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.IdentityProvider;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.TokenAuthenticationRequest;
import io.quarkus.security.runtime.QuarkusPrincipal;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/** Turns a known API key into an identity carrying its tenant and scopes; an unknown key fails authentication. */
@ApplicationScoped
public class ApiKeyIdentityProvider implements IdentityProvider<TokenAuthenticationRequest> {

    private final ApiKeys keys;

    public ApiKeyIdentityProvider(AuthConfig config) {
        this.keys = new ApiKeys(config.apiKeys());
    }

    @Override
    public Class<TokenAuthenticationRequest> getRequestType() {
        return TokenAuthenticationRequest.class;
    }

    @Override
    public Uni<SecurityIdentity> authenticate(TokenAuthenticationRequest request, AuthenticationRequestContext context) {
        // A hash-map lookup on the SHA-256: constant work per request, no blocking.
        return keys.find(request.getToken().getToken())
                .map(grant -> Uni.createFrom().<SecurityIdentity>item(QuarkusSecurityIdentity.builder()
                        .setPrincipal(new QuarkusPrincipal(grant.keyId()))
                        .addRoles(grant.scopes())
                        .addAttribute(TenantContext.TENANT_ATTRIBUTE, grant.tenant())
                        .build()))
                .orElseGet(() -> Uni.createFrom().failure(new AuthenticationFailedException("Unknown API key")));
    }
}
