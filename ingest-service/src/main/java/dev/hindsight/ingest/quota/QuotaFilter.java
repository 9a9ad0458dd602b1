package dev.hindsight.ingest.quota;

import dev.hindsight.platform.auth.TenantContext;
import dev.hindsight.platform.problem.Problem;
import dev.hindsight.platform.tenant.TenantId;
import io.quarkus.security.identity.CurrentIdentityAssociation;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Response;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * Answers 429 with {@code Retry-After} to a tenant over its quota before the body is read ({@link TenantQuotas}).
 * Requests without a tenant pass on, to be refused by authentication.
 */
class QuotaFilter {

    private final TenantQuotas quotas;
    private final CurrentIdentityAssociation identities;

    public QuotaFilter(TenantQuotas quotas, CurrentIdentityAssociation identities) {
        this.quotas = quotas;
        this.identities = identities;
    }

    @ServerRequestFilter
    public Uni<Response> admit(ContainerRequestContext request) {
        if (!"POST".equals(request.getMethod())) {
            return Uni.createFrom().nullItem();
        }
        return identities.getDeferredIdentity().map(identity -> {
            Object tenant = identity.isAnonymous() ? null : identity.getAttribute(TenantContext.TENANT_ATTRIBUTE);
            if (!(tenant instanceof TenantId name)) {
                return null;
            }
            long wait = quotas.admit(name, request.getLength());
            if (wait == 0) {
                return null;
            }
            return Response.status(429).type(Problem.MEDIA_TYPE).header("Retry-After", Long.toString(wait))
                    .entity(Problem.of(429, "Too many requests", "This tenant is over its quota of events or bytes a "
                            + "second on this replica; nothing of this request was read. Retry after " + wait + " s.")
                            .withInstance(request.getUriInfo().getPath()))
                    .build();
        });
    }
}
