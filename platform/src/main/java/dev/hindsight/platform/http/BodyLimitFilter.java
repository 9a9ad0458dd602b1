package dev.hindsight.platform.http;

import dev.hindsight.platform.problem.Problem;
import io.quarkus.runtime.configuration.MemorySize;
import io.quarkus.vertx.web.RouteFilter;
import io.vertx.core.json.Json;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Refuses a body larger than {@code quarkus.http.limits.max-body-size} with 413 problem+json as soon as its declared
 * length says so, before reading it. (A chunked body without a length that grows past the limit is still cut off by
 * the HTTP server itself, with a bare 413.)
 */
@ApplicationScoped
class BodyLimitFilter {

    private final long limit;

    public BodyLimitFilter(@ConfigProperty(name = "quarkus.http.limits.max-body-size") Optional<MemorySize> limit) {
        this.limit = limit.map(MemorySize::asLongValue).orElse(Long.MAX_VALUE);
    }

    @RouteFilter(Integer.MAX_VALUE)
    void refuseOversized(RoutingContext context) {
        String declared = context.request().getHeader("Content-Length");
        if (declared != null) {
            try {
                if (Long.parseLong(declared.trim()) > limit) {
                    Problem problem = Problem.of(413, "Payload too large", "The body has " + declared.trim()
                            + " bytes; the limit is " + limit + ". Split it (e.g. into several batches).")
                            .withInstance(context.request().path());
                    context.response().setStatusCode(413)
                            .putHeader("Content-Type", Problem.MEDIA_TYPE)
                            .putHeader("Connection", "close")
                            .end(Json.encode(problem));
                    return;
                }
            } catch (NumberFormatException malformed) {
                // The HTTP server rejects a malformed Content-Length itself.
            }
        }
        context.next();
    }
}
