package dev.hindsight.platform.erasure;

import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Not ready until the erasure log is read and every erasure in it applied here: an erased session must already be
 * refused, and a database restored from a backup older than an erasure must not serve what it erased.
 */
@Readiness
@ApplicationScoped
class ErasureFeedCheck implements HealthCheck {

    private final ErasureFeed feed;
    private final ErasureWorker worker;

    public ErasureFeedCheck(ErasureFeed feed, ErasureWorker worker) {
        this.feed = feed;
        this.worker = worker;
    }

    @Override
    public HealthCheckResponse call() {
        return HealthCheckResponse.named("erasure log").status(feed.caughtUp() && worker.idle()).build();
    }
}
