package dev.hindsight.ingest.quota;

import dev.hindsight.platform.limit.TokenBucket;
import dev.hindsight.platform.tenant.TenantId;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Holds each tenant to its quota (docs/design.md, "Tenant quotas"): a request is admitted while the tenant's event
 * bucket is not in debt and its byte bucket can pay for the body it declares; the events a request published are
 * taken once Kafka acknowledged them. A tenant flooding ingest is answered 429 before its bodies are even read, so
 * the other tenants keep ingest's CPU and Kafka.
 */
@ApplicationScoped
public class TenantQuotas {

    private final QuotaConfig config;
    private final MeterRegistry meters;
    private final Map<TenantId, Buckets> tenants = new ConcurrentHashMap<>();

    private record Buckets(TokenBucket events, TokenBucket bytes) {
    }

    public TenantQuotas(QuotaConfig config, MeterRegistry meters) {
        this.config = config;
        this.meters = meters;
    }

    /**
     * Seconds (at least 1) the tenant must wait before sending a request of {@code bodyBytes} (-1 when unknown), or 0
     * when it may send it now; then its bytes are taken.
     */
    public long admit(TenantId tenant, long bodyBytes) {
        if (!config.enabled()) {
            return 0;
        }
        Buckets buckets = buckets(tenant);
        double wait = Math.max(buckets.events().waitFor(0), bodyBytes > 0 ? buckets.bytes().waitFor(bodyBytes) : 0);
        if (wait > 0) {
            meters.counter("hindsight_ingest_quota_refused", "tenant", tenant.value()).increment();
            return Math.max(1, (long) Math.ceil(wait));
        }
        if (bodyBytes > 0) {
            buckets.bytes().take(bodyBytes);
        }
        return 0;
    }

    /** Takes the events of an admitted request that Kafka acknowledged. */
    public void published(TenantId tenant, int events) {
        if (config.enabled() && events > 0) {
            buckets(tenant).events().take(events);
        }
    }

    private Buckets buckets(TenantId tenant) {
        return tenants.computeIfAbsent(tenant, t -> {
            QuotaConfig.Tenant own = config.tenant().get(t.value());
            double events = own == null ? config.eventsPerSecond()
                    : own.eventsPerSecond().orElse(config.eventsPerSecond());
            double bytes = own == null || own.bytesPerSecond().isEmpty() ? config.bytesPerSecond().asLongValue()
                    : own.bytesPerSecond().get().asLongValue();
            double burst = config.burst().toNanos() / 1e9;
            return new Buckets(new TokenBucket(events, events * burst, System::nanoTime),
                    new TokenBucket(bytes, bytes * burst, System::nanoTime));
        });
    }
}
