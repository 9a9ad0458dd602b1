package dev.hindsight.platform.auth;

import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.credential.TokenCredential;
import io.quarkus.security.identity.IdentityProviderManager;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.AuthenticationRequest;
import io.quarkus.security.identity.request.TokenAuthenticationRequest;
import io.quarkus.vertx.http.runtime.security.ChallengeData;
import io.quarkus.vertx.http.runtime.security.HttpAuthenticationMechanism;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Set;

/**
 * Reads {@code Authorization: Bearer <api key>} and hands the token to {@link ApiKeyIdentityProvider}; a source that
 * failed too often lately is refused without a look at its key ({@link FailedAuthentications}).
 */
@ApplicationScoped
public class ApiKeyAuthenticationMechanism implements HttpAuthenticationMechanism {

    private static final String PREFIX = "bearer ";

    private final FailedAuthentications failures;

    public ApiKeyAuthenticationMechanism(FailedAuthentications failures) {
        this.failures = failures;
    }

    @Override
    public Uni<SecurityIdentity> authenticate(RoutingContext context, IdentityProviderManager identityProviderManager) {
        String header = context.request().getHeader("Authorization");
        if (header == null || header.length() <= PREFIX.length()
                || !header.regionMatches(true, 0, PREFIX, 0, PREFIX.length())) {
            // Anonymous; endpoints that need a tenant refuse it, so this fails closed.
            return Uni.createFrom().nullItem();
        }
        String source = context.request().remoteAddress() == null ? "unknown"
                : context.request().remoteAddress().host();
        long wait = failures.waitFor(source);
        if (wait > 0) {
            return Uni.createFrom().failure(FailedAuthentications.throttled(wait));
        }
        String token = header.substring(PREFIX.length()).trim();
        return identityProviderManager.authenticate(
                new TokenAuthenticationRequest(new TokenCredential(token, "bearer")))
                .onFailure(AuthenticationFailedException.class).invoke(unknown -> failures.failed(source));
    }

    @Override
    public Uni<ChallengeData> getChallenge(RoutingContext context) {
        return Uni.createFrom().item(new ChallengeData(401, "WWW-Authenticate", "Bearer realm=\"hindsight\""));
    }

    @Override
    public Set<Class<? extends AuthenticationRequest>> getCredentialTypes() {
        return Set.of(TokenAuthenticationRequest.class);
    }
}
