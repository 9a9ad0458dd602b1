package dev.hindsight.testing;

import dev.hindsight.platform.Hashing;
import java.util.Map;

/** API keys every test application accepts (configured by {@link HindsightTestResource}), one per test persona. */
public enum TestTenants {

    /** Tenant A, may ingest and read. */
    TENANT_A("tenant-a", "test-key-tenant-a", "ingest,read,admin"),
    /** Tenant B, may ingest and read: its data must never show through A's keys and vice versa. */
    TENANT_B("tenant-b", "test-key-tenant-b", "ingest,read"),
    /** Tenant B's administrator: may manage tenant B's keys, and must never see tenant A's. */
    ADMIN_B("tenant-b", "test-key-admin-b", "admin"),
    /** Tenant A again, but only allowed to read. */
    READ_ONLY_A("tenant-a", "test-key-read-only", "read"),
    /** The console's browser tests: a tenant of their own, so that what a page lists is exactly what they sent. */
    CONSOLE("tenant-console", "test-key-tenant-console", "ingest,read,admin"),
    /** A tenant of its own for tests that exhaust its quota of events (ingest's test profile gives it a small one). */
    FLOOD("tenant-flood", "test-key-tenant-flood", "ingest,read"),
    /** Likewise for its quota of bytes. */
    FLOOD_BYTES("tenant-flood-bytes", "test-key-tenant-flood-bytes", "ingest,read"),
    /** A tenant whose redaction policy is keep: its secrets reach the log as sent ({@link #config()}). */
    KEEP("tenant-keep", "test-key-tenant-keep", "ingest,read"),
    /** Tenant A's erasures (scope erase only, which no other persona has). */
    ERASE_A("tenant-a", "test-key-erase-a", "erase"),
    /**
     * A tenant that a test erases whole: its keys stop working for the rest of the run, so no other test uses it.
     */
    ERASED("tenant-erased", "test-key-tenant-erased", "ingest,read,erase"),
    /**
     * A tenant whose sessions are kept 30 days after their last event ({@link #config()}): a test's sessions written
     * with older event times are erased by retention, so no other test uses it.
     */
    RETAINED("tenant-retained", "test-key-tenant-retained", "ingest,read,erase");

    private final String tenant;
    private final String key;
    private final String scopes;

    TestTenants(String tenant, String key, String scopes) {
        this.tenant = tenant;
        this.key = key;
        this.scopes = scopes;
    }

    public String tenant() {
        return tenant;
    }

    /** The bearer token. */
    public String key() {
        return key;
    }

    /** {@code Authorization} header value. */
    public String bearer() {
        return "Bearer " + key;
    }

    /**
     * Configuration that makes a service accept every test key, keep {@link #KEEP}'s secrets as sent and
     * {@link #RETAINED}'s sessions 30 days.
     */
    public static Map<String, String> config() {
        Map<String, String> config = new java.util.HashMap<>();
        for (TestTenants persona : values()) {
            String prefix = "hindsight.auth.api-keys." + persona.name().toLowerCase(java.util.Locale.ROOT) + ".";
            config.put(prefix + "sha256", Hashing.sha256Hex(persona.key));
            config.put(prefix + "tenant", persona.tenant);
            config.put(prefix + "scopes", persona.scopes);
        }
        config.put("hindsight.redaction.tenant." + KEEP.tenant, "keep");
        config.put("hindsight.query.retention.sessions-by-tenant." + RETAINED.tenant, "30d");
        return config;
    }
}
