package dev.hindsight.ingest.quota;

import io.quarkus.runtime.configuration.MemorySize;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Per-tenant limits on what ingest takes, per replica: events a second and request bytes a second, each with a burst.
 * With N replicas behind a load balancer a tenant may send up to N times as much.
 */
@ConfigMapping(prefix = "hindsight.ingest.quota")
interface QuotaConfig {

    /** Whether tenants are limited at all. */
    @WithDefault("true")
    boolean enabled();

    /** Events a second a tenant may have accepted. */
    @WithDefault("10000")
    double eventsPerSecond();

    /** Request bytes a second a tenant may send. */
    @WithDefault("10M")
    MemorySize bytesPerSecond();

    /** How long a tenant may send at full speed after a quiet spell: the buckets hold this many seconds' worth. */
    @WithDefault("3s")
    Duration burst();

    /** Limits of one tenant other than the defaults above ({@code hindsight.ingest.quota.tenant.<tenant>.*}). */
    Map<String, Tenant> tenant();

    /** One tenant's own limits; what is not set is the default. */
    interface Tenant {

        OptionalDouble eventsPerSecond();

        Optional<MemorySize> bytesPerSecond();
    }
}
