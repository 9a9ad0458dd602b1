package dev.hindsight.query.cache;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** How much of the read API's rendered answers a replica keeps, and for how long at most. */
@ConfigMapping(prefix = "hindsight.query.cache")
public interface ReadCacheConfig {

    /** Off: every read goes to PostgreSQL (answers still carry an ETag). */
    @WithDefault("true")
    boolean enabled();

    /** Upper bound on the rendered answers kept, in bytes of JSON. */
    @WithDefault("33554432")
    long maxBytes();

    /**
     * An answer is dropped this long after it was rendered even if no change was announced for it: a bound on
     * staleness should an announcement ever be lost despite the feed's reconnect handling.
     */
    @WithDefault("10m")
    Duration ttl();
}
