package dev.hindsight.platform.auth;

import dev.hindsight.events.HindsightTopic;
import dev.hindsight.events.keys.KeyEvent;
import dev.hindsight.platform.kafka.OwnedTopics;
import dev.hindsight.platform.kafka.TopicFollower;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.common.annotation.Identifier;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.Map;
import org.eclipse.microprofile.config.Config;

/**
 * Reads all of {@code hindsight.keys.v1} into the {@link KeyRing} on every replica of every service
 * ({@link TopicFollower}): a key issued, rotated or revoked on one replica takes effect on all of them within a poll
 * (half a second). The topic stays small (one event per change of a key), so each start reads it again. Until it has
 * read what the topic held at start-up, the service is not ready ({@code KeyFeedCheck}).
 */
@ApplicationScoped
class KeyFeed {

    private final TopicFollower follower;

    public KeyFeed(KeyRing ring, @Identifier("default-kafka-broker") Map<String, Object> kafka, Config config) {
        this.follower = new TopicFollower(OwnedTopics.name(config, HindsightTopic.KEYS), "key-feed", kafka, config,
                envelope -> {
                    if (envelope instanceof KeyEvent key) {
                        ring.apply(key);
                    }
                });
    }

    void onStart(@Observes StartupEvent event) {
        follower.start();
    }

    void onStop(@Observes ShutdownEvent event) {
        follower.stop();
    }

    /** Whether every key the topic held when this service started has been read. */
    public boolean caughtUp() {
        return follower.caughtUp();
    }
}
