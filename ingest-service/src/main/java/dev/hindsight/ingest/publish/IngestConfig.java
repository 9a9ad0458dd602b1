package dev.hindsight.ingest.publish;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** How long ingest waits for Kafka, and how it behaves while Kafka is away. */
@ConfigMapping(prefix = "hindsight.ingest")
public interface IngestConfig {

    /**
     * Longest wait for Kafka's acknowledgement before answering 503. Events sent meanwhile may still land later; their
     * ids make the producer's retry harmless.
     */
    @WithDefault("5s")
    Duration ackTimeout();

    /**
     * After a failed acknowledgement, requests are answered 503 at once for this long (the Retry-After), then one
     * request probes Kafka again.
     */
    @WithDefault("5s")
    Duration openCircuitFor();
}
