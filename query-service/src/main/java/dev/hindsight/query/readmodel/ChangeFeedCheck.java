package dev.hindsight.query.readmodel;

import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Ready only while this replica hears the projection's changes: without them its live stream would miss changes and
 * its read cache stays closed (ADR 0009).
 */
@Readiness
@ApplicationScoped
class ChangeFeedCheck implements HealthCheck {

    private final ChangeFeed feed;

    public ChangeFeedCheck(ChangeFeed feed) {
        this.feed = feed;
    }

    @Override
    public HealthCheckResponse call() {
        return HealthCheckResponse.named("Read-model change feed").status(feed.isListening()).build();
    }
}
