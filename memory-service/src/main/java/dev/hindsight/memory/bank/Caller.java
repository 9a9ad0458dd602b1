package dev.hindsight.memory.bank;

import dev.hindsight.platform.tenant.TenantId;

/** Who asks: the tenant and key id from the credential, and which surface they came through (rest or mcp). */
public record Caller(TenantId tenant, String principal, String via) {
}
