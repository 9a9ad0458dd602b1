package dev.hindsight.platform.auth;

import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/** Not ready until the keys issued at run time are read: a key issued before the start must already work. */
@Readiness
@ApplicationScoped
class KeyFeedCheck implements HealthCheck {

    private final KeyFeed feed;

    public KeyFeedCheck(KeyFeed feed) {
        this.feed = feed;
    }

    @Override
    public HealthCheckResponse call() {
        return HealthCheckResponse.named("api keys issued at run time").status(feed.caughtUp()).build();
    }
}
