package dev.hindsight.evaluation.shadow;

import dev.hindsight.platform.tenant.TenantId;
import java.time.Instant;
import java.util.List;

/** Builders for the given events of the shadow tests: the example decision set and its signals. */
final class Given {

    /** The example's decision time. */
    static final Instant T0 = Instant.parse("2025-01-31T10:30:00Z");

    private Given() {
    }

    static Decision decision(String version, String action) {
        return new Decision(version, "LOCAL_KNOWLEDGE", action, "medium", "some reasoning");
    }

    /**
     * The example question "What is the latest Python version?" answered directly by v1, with two shadows asking to
     * communicate.
     */
    static DecisionSet seedDecisionSet() {
        return new DecisionSet(TenantId.of("acme"), "ds-abc123", "msg-456", "session-789", "v1.0.0",
                new Decision("v1.0.0", "LOCAL_KNOWLEDGE", "DIRECT_ANSWER", "high",
                        "Python versioning is well-established"),
                List.of(new Decision("v2.0-alpha", "EXTERNAL_FACT_UNCERTAIN", "REQUIRE_COMM", "low",
                                "Time-sensitive query requires current data"),
                        new Decision("v2.0-beta", "OPINION", "SUGGEST_COMM", "medium",
                                "May benefit from external validation")),
                T0);
    }

    static DecisionSet decisionSet(String activeAction, Decision... shadows) {
        return new DecisionSet(TenantId.of("acme"), "ds-abc123", "msg-456", "session-789", "v1.0.0",
                decision("v1.0.0", activeAction), List.of(shadows), T0);
    }

    static Signal signal(String eventId, SignalType type, long secondsAfterT0) {
        return new Signal(eventId, type, T0.plusSeconds(secondsAfterT0), null, null, null, null);
    }

    static Signal override(String eventId, long secondsAfterT0, String requestedAction, String userAction) {
        return new Signal(eventId, SignalType.USER_FOLLOWUP_OVERRIDE, T0.plusSeconds(secondsAfterT0),
                requestedAction, userAction, null, null);
    }

    static Signal feedback(String eventId, long secondsAfterT0, Boolean thumbsUp) {
        return new Signal(eventId, SignalType.EXPLICIT_FEEDBACK, T0.plusSeconds(secondsAfterT0),
                null, null, thumbsUp, null);
    }

    static Signal violation(String eventId, long secondsAfterT0, String violationType) {
        return new Signal(eventId, SignalType.PHASE_VIOLATION, T0.plusSeconds(secondsAfterT0),
                null, null, null, violationType);
    }
}
