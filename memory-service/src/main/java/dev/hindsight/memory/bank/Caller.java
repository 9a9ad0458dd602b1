package dev.hindsight.memory.bank;

/** Who asks: the tenant and key id from the credential, and which surface they came through (rest or mcp). */
public record Caller(String tenant, String principal, String via) {
}
