package dev.hindsight.platform.auth;

import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.IdentityProvider;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/** The identity of a key named by its hash: the same tenant and scopes as the key itself would get. */
@ApplicationScoped
class KeyHashIdentityProvider implements IdentityProvider<KeyHashAuthenticationRequest> {

    private final ApiKeyIdentityProvider keys;

    public KeyHashIdentityProvider(ApiKeyIdentityProvider keys) {
        this.keys = keys;
    }

    @Override
    public Class<KeyHashAuthenticationRequest> getRequestType() {
        return KeyHashAuthenticationRequest.class;
    }

    @Override
    public Uni<SecurityIdentity> authenticate(KeyHashAuthenticationRequest request,
            AuthenticationRequestContext context) {
        return keys.identity(request.sha256());
    }
}
