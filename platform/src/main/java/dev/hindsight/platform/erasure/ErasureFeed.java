package dev.hindsight.platform.erasure;

import dev.hindsight.events.HindsightTopic;
import dev.hindsight.events.erasures.ErasureEvent;
import dev.hindsight.platform.kafka.OwnedTopics;
import dev.hindsight.platform.kafka.TopicFollower;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.common.annotation.Identifier;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.interceptor.Interceptor;
import java.util.Map;
import org.eclipse.microprofile.config.Config;

/**
 * Reads all of {@code hindsight.erasures.v1} into the {@link ErasureLog} on every replica of every service, from its
 * beginning at each start ({@link TopicFollower}): so a replica refuses what was erased anywhere, and a service whose
 * database was restored from a backup applies again every erasure the backup predates. Until it has read what the log
 * held at start-up the service is not ready, and no consumer writes a batch.
 */
@ApplicationScoped
class ErasureFeed {

    private final TopicFollower follower;

    public ErasureFeed(ErasureLog log, @Identifier("default-kafka-broker") Map<String, Object> kafka, Config config) {
        this.follower = new TopicFollower(OwnedTopics.name(config, HindsightTopic.ERASURES), "erasure-feed", kafka,
                config, envelope -> {
                    if (envelope instanceof ErasureEvent event) {
                        log.apply(event);
                    }
                });
        log.follow(follower::caughtUp, follower::readTo);
    }

    // After every listener has registered (the appliers' worker observes start-up at the default priority): each
    // erasure of the log must reach them, those read at start-up first of all.
    void onStart(@Observes @Priority(Interceptor.Priority.PLATFORM_AFTER) StartupEvent event) {
        follower.start();
    }

    void onStop(@Observes ShutdownEvent event) {
        follower.stop();
    }

    /** Whether every erasure the log held when this service started has been read. */
    public boolean caughtUp() {
        return follower.caughtUp();
    }
}
