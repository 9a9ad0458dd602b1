package dev.hindsight.evaluation.shadow;

import java.nio.charset.StandardCharsets;
import java.util.UUID;

/** Deterministic ids, so that a replay or a redelivery derives the same id and downstream writes stay idempotent. */
final class Ids {

    private Ids() {
    }

    static String nameUuid(String... parts) {
        return UUID.nameUUIDFromBytes(String.join("/", parts).getBytes(StandardCharsets.UTF_8)).toString();
    }
}
