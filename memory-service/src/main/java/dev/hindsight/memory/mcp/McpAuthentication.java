package dev.hindsight.memory.mcp;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hindsight.platform.auth.ApiKeyAuthenticationMechanism;
import dev.hindsight.platform.auth.FailedAuthentications;
import dev.hindsight.platform.problem.Problem;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.identity.IdentityProviderManager;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * Authenticates {@code /mcp} the HTTP way before the MCP server sees the request: a missing or wrong API key is 401
 * with {@code WWW-Authenticate: Bearer} and a problem+json body (429 with {@code Retry-After} for a source that failed
 * too often), as on every REST endpoint. Left to the MCP server, a wrong key would become a JSON-RPC error whose
 * message is an exception's class name, with no challenge a host could act on. The same mechanism as everywhere
 * authenticates (so failed attempts count towards the same limit); the MCP server then finds the caller through
 * Quarkus security, as any endpoint does.
 */
@ApplicationScoped
class McpAuthentication {

    /** Before Quarkus's own security handlers, which only defer authentication (it is lazy in Hindsight). */
    private static final int ORDER = -1_000;

    void install(@Observes Router router, ApiKeyAuthenticationMechanism mechanism,
            IdentityProviderManager identities, ObjectMapper json) {
        router.routeWithRegex("/mcp(/.*)?").order(ORDER).handler(context -> mechanism.authenticate(context, identities)
                .subscribe().with(identity -> {
                    if (identity == null || identity.isAnonymous()) {
                        refuse(context, json, null);
                    } else {
                        context.next();
                    }
                }, failure -> refuse(context, json, failure)));
    }

    private static void refuse(RoutingContext context, ObjectMapper json, Throwable failure) {
        Object wait = failure instanceof AuthenticationFailedException failed
                ? failed.getAttribute(FailedAuthentications.RETRY_AFTER) : null;
        Problem problem = wait != null
                ? Problem.of(429, "Too many requests", "Too many failed authentications from this address; retry "
                        + "after " + wait + " s")
                : Problem.of(401, "Unauthenticated", "Send a valid API key as 'Authorization: Bearer <key>'");
        var response = context.response().setStatusCode(problem.status())
                .putHeader("Content-Type", Problem.MEDIA_TYPE);
        if (wait != null) {
            response.putHeader("Retry-After", wait.toString());
        } else {
            response.putHeader("WWW-Authenticate", "Bearer realm=\"hindsight\"");
        }
        try {
            response.end(json.writeValueAsString(problem.withInstance(context.request().path())));
        } catch (JsonProcessingException e) {
            response.end();
        }
    }
}
