package dev.hindsight.platform.kafka;

/** Proof that Kafka acknowledged an event: where it now lives for good. */
public record Receipt(String eventId, String topic, int partition, long offset) {
}
