package dev.hindsight.query.console;

import dev.hindsight.platform.auth.KeyHashAuthenticationRequest;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.identity.IdentityProviderManager;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.AuthenticationRequest;
import io.quarkus.vertx.http.runtime.security.ChallengeData;
import io.quarkus.vertx.http.runtime.security.HttpAuthenticationMechanism;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.Cookie;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.Set;

/**
 * Signs console pages in from the {@code hindsight_console} cookie, and nothing else: the JSON API keeps taking only
 * {@code Authorization: Bearer}, so a browser's cookie can never act on it. A cookie that is forged, expired or names
 * a key that is no longer valid leaves the request anonymous, and the page sends the browser to sign in.
 */
@ApplicationScoped
class ConsoleAuthenticationMechanism implements HttpAuthenticationMechanism {

    private final ConsoleSignIn signIn;

    public ConsoleAuthenticationMechanism(ConsoleSignIn signIn) {
        this.signIn = signIn;
    }

    @Override
    public Uni<SecurityIdentity> authenticate(RoutingContext context, IdentityProviderManager identities) {
        if (!context.normalizedPath().startsWith(ConsolePaths.UI + "/")) {
            return Uni.createFrom().nullItem();
        }
        Cookie cookie = context.request().getCookie(ConsoleCookie.NAME);
        if (cookie == null) {
            return Uni.createFrom().nullItem();
        }
        return signIn.cookie().verify(cookie.getValue(), Instant.now())
                .map(sha256 -> identities.authenticate(new KeyHashAuthenticationRequest(sha256))
                        .onFailure(AuthenticationFailedException.class).recoverWithNull())
                .orElseGet(() -> Uni.createFrom().nullItem());
    }

    @Override
    public Uni<ChallengeData> getChallenge(RoutingContext context) {
        // Console pages send anonymous visitors to the sign-in page themselves; the API's challenge is the bearer one.
        return Uni.createFrom().nullItem();
    }

    @Override
    public Set<Class<? extends AuthenticationRequest>> getCredentialTypes() {
        return Set.of(KeyHashAuthenticationRequest.class);
    }

    @Override
    public int getPriority() {
        // After the bearer mechanism (the default priority): a request that carries a key is judged by its key.
        return DEFAULT_PRIORITY - 100;
    }
}
