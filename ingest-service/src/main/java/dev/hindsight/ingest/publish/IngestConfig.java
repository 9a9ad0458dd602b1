package dev.hindsight.ingest.publish;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.net.URI;
import java.time.Duration;
import java.util.Optional;

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

    /**
     * query-service's base URL, asked before publishing messages whether one conflicts with a message already recorded
     * at its index (answered 409; ADR 0005), and what an erasure covers (ADR 0028). Unset: not asked, and the read
     * model keeps the first message per index; erasures are refused with 503.
     */
    Optional<URI> conflictCheckUrl();

    /** Longest wait for that answer; without one in time the messages are published (the check fails open). */
    @WithDefault("500ms")
    Duration conflictCheckTimeout();

    /**
     * After a check went unanswered, messages are published without asking for this long, then one request asks
     * again: a query-service that is down or overloaded costs producers nothing and is not asked harder.
     */
    @WithDefault("5s")
    Duration conflictCheckPause();

    /**
     * Whether what producers wrote is sealed under data keys before it reaches Kafka (ADR 0027). Off only to measure
     * what sealing costs: consumers open sealed events whatever this says.
     */
    @WithDefault("true")
    boolean seal();
}
