package dev.hindsight.query.readmodel;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** How much of the read API's rendered answers a replica keeps, and for how long at most. */
@ConfigMapping(prefix = "hindsight.query.cache")
interface ReadCacheConfig {

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

    /**
     * Keep an answer the first time it is read. Off (the default): an answer is kept from its second read while the
     * doorkeeper still remembers the first (the last 131,072 distinct answers read), so reads spread over millions
     * of sessions, each read once, keep nothing and cost the heap nothing (docs/benchmarks.md).
     */
    @WithDefault("false")
    boolean admitFirstRead();
}
