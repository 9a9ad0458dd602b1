package dev.hindsight.query.console;

import dev.hindsight.platform.Hashing;
import dev.hindsight.platform.auth.ApiKeyIdentityProvider;
import dev.hindsight.platform.auth.ApiKeys;
import dev.hindsight.platform.auth.FailedAuthentications;
import dev.hindsight.platform.auth.Scopes;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * Exchanges an API key for a console cookie: the key is checked exactly as the API checks it (configured keys, then
 * keys issued at run time), under the same limit on failed attempts per source address.
 */
@ApplicationScoped
class ConsoleSignIn {

    private static final Logger LOG = Logger.getLogger(ConsoleSignIn.class);

    /** What a sign-in attempt came to. */
    public sealed interface Outcome {
        /** Signed in: set this cookie value, which expires at {@code expiry}. */
        record SignedIn(String cookie, Instant expiry, ApiKeys.Grant grant) implements Outcome {
        }

        /** Not a valid key (or one that cannot read): say so, count the failure. */
        record Refused(String reason) implements Outcome {
        }

        /** Too many failures from this source lately: wait. */
        record Throttled(long seconds) implements Outcome {
        }
    }

    private final ApiKeyIdentityProvider keys;
    private final FailedAuthentications failures;
    private final ConsoleCookie cookie;
    private final Duration lifetime;

    public ConsoleSignIn(ApiKeyIdentityProvider keys, FailedAuthentications failures, ConsoleConfig config) {
        this.keys = keys;
        this.failures = failures;
        this.lifetime = config.signInLifetime();
        this.cookie = new ConsoleCookie(config.cookieSecret().map(s -> s.getBytes(StandardCharsets.UTF_8))
                .orElseGet(ConsoleSignIn::randomSecret));
    }

    private static byte[] randomSecret() {
        LOG.warn("hindsight.console.cookie-secret is not set: console sign-ins are signed with a key of this "
                + "replica's own and end when it restarts; set the same secret on every replica");
        byte[] secret = new byte[32];
        new SecureRandom().nextBytes(secret);
        return secret;
    }

    public ConsoleCookie cookie() {
        return cookie;
    }

    public Duration lifetime() {
        return lifetime;
    }

    /** Checks {@code apiKey} presented from {@code source} at {@code now}. */
    public Outcome signIn(String apiKey, String source, Instant now) {
        long wait = failures.waitFor(source);
        if (wait > 0) {
            return new Outcome.Throttled(wait);
        }
        if (apiKey == null || apiKey.isBlank()) {
            return new Outcome.Refused("Enter an API key.");
        }
        String sha256 = Hashing.sha256Hex(apiKey.trim());
        Optional<ApiKeys.Grant> grant = keys.grant(sha256);
        if (grant.isEmpty()) {
            failures.failed(source);
            return new Outcome.Refused("This API key is not valid: it is unknown, expired or revoked.");
        }
        if (!grant.get().scopes().contains(Scopes.READ)) {
            return new Outcome.Refused("This API key cannot read (it lacks the read scope): use a key that can.");
        }
        Instant expiry = now.plus(lifetime);
        return new Outcome.SignedIn(cookie.issue(sha256, expiry), expiry, grant.get());
    }
}
