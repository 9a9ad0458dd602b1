package dev.hindsight.platform.tenant;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Objects;

/**
 * A tenant, as its credential names it. Every repository and projection method that reads or writes a tenant's rows
 * takes one, so that a forgotten tenant scope is a compile error rather than a missing {@code tenant_id = $n}; the
 * value enters SQL and events as {@link #value()} only at that boundary. Never blank. JSON writes it as its text.
 */
public record TenantId(String value) {

    public TenantId {
        Objects.requireNonNull(value, "tenant");
        if (value.isBlank()) {
            throw new IllegalArgumentException("a tenant id is never blank");
        }
    }

    /** The tenant named {@code value} (an event header's {@code tenant_id}, a credential's tenant). */
    @JsonCreator
    public static TenantId of(String value) {
        return new TenantId(value);
    }

    @JsonValue
    @Override
    public String value() {
        return value;
    }

    @Override
    public String toString() {
        return value;
    }
}
