package dev.hindsight.platform.registry;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithName;

/** Where the schema registry is and which group the serdes register under. */
@ConfigMapping(prefix = "hindsight.registry")
public interface RegistryConfig {

    /** Core API v3 root; defaults to the URL the Kafka serdes use. */
    @WithName("url")
    @WithDefault("${mp.messaging.connector.smallrye-kafka.apicurio.registry.url}")
    String url();

    /** Artifact group; the Apicurio serdes register under {@code default} unless told otherwise. */
    @WithDefault("default")
    String group();

    /** Register the produced topics' schemas with BACKWARD_TRANSITIVE compatibility at start-up. */
    @WithDefault("true")
    boolean registerOnStart();
}
