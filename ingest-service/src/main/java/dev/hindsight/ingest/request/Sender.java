package dev.hindsight.ingest.request;

import dev.hindsight.platform.auth.TenantContext;
import dev.hindsight.platform.tenant.TenantId;

/**
 * Who sends a request: tenant and principal from the credential (never the body), the client software, and the
 * producer's Idempotency-Key if any.
 */
public record Sender(TenantId tenant, String principal, String client, String idempotencyKey) {

    public static Sender of(TenantContext context, String client, String idempotencyKey) {
        return new Sender(context.tenant(), context.principal(), client, idempotencyKey);
    }

    /** The same caller with another Idempotency-Key (a batch item's own scope within the batch's key). */
    public Sender withIdempotencyKey(String key) {
        return new Sender(tenant, principal, client, key);
    }
}
