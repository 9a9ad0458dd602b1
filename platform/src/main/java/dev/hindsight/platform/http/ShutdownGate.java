package dev.hindsight.platform.http;

import dev.hindsight.platform.problem.Problem;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.vertx.web.RouteFilter;
import io.vertx.core.json.Json;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Once the service is stopping, a new request is refused unread: 503 problem+json with {@code Retry-After} and
 * {@code Connection: close}. The HTTP server's graceful shutdown waits only for the requests that arrived before it
 * began to drain; one arriving after that on a kept-alive connection would still be handled (its events published)
 * and then lose its answer when the server closes. So the gate closes when the process is told to stop (SIGTERM), or
 * at the end of the pre-shutdown delay when one is set ({@code quarkus.shutdown.delay}: meanwhile the pod leaves the
 * Service's endpoints and keeps serving), just before the server drains (design.md § Stopping).
 */
@ApplicationScoped
class ShutdownGate {

    /** How long before the delay ends the gate closes, so that it is closed when the server starts draining. */
    private static final Duration AHEAD = Duration.ofMillis(100);

    private final Duration delay;
    private final Thread hook = new Thread(this::close, "hindsight-shutdown-gate");
    private volatile boolean closed;

    public ShutdownGate(@ConfigProperty(name = "quarkus.shutdown.delay") Optional<Duration> delay) {
        this.delay = delay.orElse(Duration.ZERO);
    }

    void onStart(@Observes StartupEvent event) {
        Runtime.getRuntime().addShutdownHook(hook);
    }

    void onStop(@Observes ShutdownEvent event) {
        closed = true;
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException alreadyStopping) {
            // The JVM is exiting: the hook has run or is running.
        }
    }

    private void close() {
        long wait = delay.minus(AHEAD).toMillis();
        if (wait > 0) {
            try {
                Thread.sleep(wait);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        closed = true;
    }

    @RouteFilter(Integer.MAX_VALUE)
    void refuseWhileStopping(RoutingContext context) {
        if (!closed) {
            context.next();
            return;
        }
        Problem problem = Problem.of(503, "Stopping", "This instance is stopping and did not read the request; "
                + "send it again (another instance will take it)").withInstance(context.request().path());
        context.response().setStatusCode(503)
                .putHeader("Content-Type", Problem.MEDIA_TYPE)
                .putHeader("Retry-After", "1")
                .putHeader("Connection", "close")
                .end(Json.encode(problem));
    }
}
