package dev.hindsight.platform.kafka;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * How a service provisions the topics it is the single writer of. Locally the service creates them; on Kubernetes
 * Strimzi's KafkaTopic resources own them and provisioning is switched off.
 */
@ConfigMapping(prefix = "hindsight.kafka")
public interface KafkaTopicsConfig {

    /** Create missing owned topics at start-up. */
    @WithDefault("true")
    boolean provisionTopics();

    /**
     * Partitions of every topic. One count for all keeps decisions and signals co-partitioned by message id; it can
     * only grow, and growing it re-keys nothing already written but breaks per-key order across the change.
     */
    @WithDefault("6")
    int partitions();

    /** Replication factor of created topics (1 on a single local broker, 3 in production). */
    @WithDefault("1")
    short replicationFactor();

    /**
     * The largest event a topic takes ({@code max.message.bytes} of the topics it creates, and every producer's
     * {@code max.request.size}). An event is at most about as large as the request body that carried it, so the
     * default is ingest's 4 MiB body limit plus room for the envelope: an event ingest accepts always fits, and so does
     * its dead letter. Kafka's own default, 1 MiB, would refuse a valid 3 MB message.
     */
    @WithDefault("5242880")
    int maxMessageBytes();

    /**
     * How consumers of work judged in hindsight fetch (evaluation's and memory's inputs, the insights and evaluations
     * query-service projects): their channels take {@code fetch.min.bytes} and {@code fetch.max.wait.ms} from here.
     * Values and reasons in the platform's {@code microprofile-config.properties}.
     */
    Background background();

    interface Background {

        /** A broker answers such a fetch once it holds this many bytes for it... */
        int fetchMinBytes();

        /** ...or after this long. */
        int fetchMaxWaitMs();
    }
}
