package dev.hindsight.platform.auth;

import dev.hindsight.platform.limit.TokenBucket;
import io.quarkus.security.AuthenticationFailedException;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Slows down whoever keeps presenting unknown API keys: each source (the client's address, or the forwarded one
 * behind a proxy that sets {@code quarkus.http.proxy.*}) may fail a burst of times, then once every few seconds;
 * beyond that every attempt from it, right or wrong, is answered 429 until it has waited. Guessing a key (2^256 of
 * them) is hopeless either way; this keeps a guesser from costing the service anything.
 */
@ApplicationScoped
public class FailedAuthentications {

    /** How many failures a source may have: a burst, then a rate. */
    @ConfigMapping(prefix = "hindsight.auth.failures")
    public interface Limits {

        /** Failures a source may have in a row before it is slowed down. */
        @WithDefault("20")
        int burst();

        /** Failures a minute a source may have after its burst. */
        @WithDefault("10")
        int perMinute();
    }

    /** Attribute of the refusal: the seconds to wait, for the answer's {@code Retry-After}. */
    public static final String RETRY_AFTER = "hindsight.retry-after-seconds";

    /** Sources remembered at most; beyond it, those that have not failed lately are forgotten. */
    private static final int REMEMBERED = 10_000;

    private final Limits limits;
    private final Map<String, TokenBucket> sources = new ConcurrentHashMap<>();

    public FailedAuthentications(Limits limits) {
        this.limits = limits;
    }

    /** Seconds {@code source} must wait before it may authenticate again; 0 when it may now. */
    public long waitFor(String source) {
        TokenBucket bucket = sources.get(source);
        double wait = bucket == null ? 0 : bucket.waitFor(1);
        return wait == 0 ? 0 : Math.max(1, (long) Math.ceil(wait));
    }

    /** The refusal of a source that must wait {@code seconds}. */
    public static AuthenticationFailedException throttled(long seconds) {
        return new AuthenticationFailedException("Too many failed authentications from this source",
                Map.of(RETRY_AFTER, seconds));
    }

    /** Counts a failed authentication of {@code source}. */
    public void failed(String source) {
        if (sources.size() >= REMEMBERED) {
            sources.values().removeIf(b -> b.tokens() >= limits.burst());
        }
        sources.computeIfAbsent(source, s -> new TokenBucket(limits.perMinute() / 60.0, limits.burst(),
                System::nanoTime)).take(1);
    }
}
