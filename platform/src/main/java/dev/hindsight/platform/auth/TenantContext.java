package dev.hindsight.platform.auth;

import dev.hindsight.platform.tenant.TenantId;
import io.quarkus.security.UnauthorizedException;
import io.quarkus.security.identity.SecurityIdentity;
import jakarta.enterprise.context.RequestScoped;

/** The tenant and principal of the current request, taken from the credential only. Fails closed. */
@RequestScoped
public class TenantContext {

    /** Identity attribute under which {@link ApiKeyIdentityProvider} stores the tenant. */
    public static final String TENANT_ATTRIBUTE = "hindsight.tenant";

    private final SecurityIdentity identity;

    public TenantContext(SecurityIdentity identity) {
        this.identity = identity;
    }

    /** The caller's tenant; a request without one is refused with 401. */
    public TenantId tenant() {
        Object tenant = identity.isAnonymous() ? null : identity.getAttribute(TENANT_ATTRIBUTE);
        if (!(tenant instanceof TenantId value)) {
            throw new UnauthorizedException("No tenant for this request");
        }
        return value;
    }

    /** Key id of the caller, recorded as the producer identity of the events it sends. */
    public String principal() {
        tenant();
        return identity.getPrincipal().getName();
    }
}
