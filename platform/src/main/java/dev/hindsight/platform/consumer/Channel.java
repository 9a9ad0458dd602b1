package dev.hindsight.platform.consumer;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * An incoming channel as a consumer declares it: its name, and the topic (or comma-separated topics) and dead-letter
 * topic its configuration gives it ({@code mp.messaging.incoming.<name>.topic} or {@code .topics}, and
 * {@code .dead-letter-queue.topic}), so that a consumer names only its channel.
 */
record Channel(String name, String topic, String deadLetterTopic) {

    /** The channel {@code name} as configured. */
    public static Channel incoming(String name) {
        Config config = ConfigProvider.getConfig();
        String prefix = "mp.messaging.incoming." + name;
        String topic = config.getOptionalValue(prefix + ".topic", String.class)
                .orElseGet(() -> config.getValue(prefix + ".topics", String.class));
        return new Channel(name, topic, config.getValue(prefix + ".dead-letter-queue.topic", String.class));
    }
}
