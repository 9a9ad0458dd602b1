package dev.hindsight.ingest.session;

import dev.hindsight.platform.kafka.Receipt;
import java.util.List;

/** Answer to an accepted session request: the session it concerns and a Kafka receipt per event published. */
record SessionAccepted(String sessionId, List<Receipt> receipts) {
}
