package dev.hindsight.testing;

import dev.hindsight.events.EventHeader;
import dev.hindsight.events.ProducerIdentity;
import dev.hindsight.events.decisions.Decision;
import dev.hindsight.events.decisions.DecisionEvent;
import dev.hindsight.events.decisions.DecisionSetRecorded;
import dev.hindsight.events.reasoning.MessageRecorded;
import dev.hindsight.events.reasoning.MessageRole;
import dev.hindsight.events.reasoning.ReasoningEvent;
import dev.hindsight.events.signals.BehaviorSignalRecorded;
import dev.hindsight.events.signals.SignalEvent;
import dev.hindsight.events.signals.SignalType;
import dev.hindsight.platform.crypto.Kms;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** Builds and publishes the envelopes ingest-service would publish, for consumers' given-events tests. */
public final class TestEvents {

    public static final String REASONING = "hindsight.reasoning.v1";
    public static final String DECISIONS = "hindsight.decisions.v1";
    public static final String SIGNALS = "hindsight.signals.v1";

    private TestEvents() {
    }

    public static EventHeader header(String tenant, Instant occurredAt) {
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        return EventHeader.newBuilder().setEventId(UUID.randomUUID()).setTenantId(tenant)
                .setOccurredAt(occurredAt == null ? now : occurredAt).setRecordedAt(now)
                .setProducer(ProducerIdentity.newBuilder().setPrincipal("test").build()).build();
    }

    public static ReasoningEvent reasoning(String tenant, String sessionId, Object payload) {
        return ReasoningEvent.newBuilder().setHeader(header(tenant, null)).setSessionId(sessionId)
                .setPayload(payload).build();
    }

    /** Publishes a session's events in order (one partition: keyed by session id). */
    public static void session(String tenant, String sessionId, Object... payloads) {
        TestTopics.writeAll(REASONING, sessionRecords(tenant, sessionId, payloads));
    }

    /** As {@link #session}, each event sealed as ingest seals it (ADR 0027). */
    public static void sealedSession(String tenant, String sessionId, Object... payloads) {
        sealedSession(TestCrypto.kms(), tenant, sessionId, payloads);
    }

    /** As {@link #sealedSession(String, String, Object...)}, its key wrapped under {@code kms}'s current version. */
    public static void sealedSession(Kms kms, String tenant, String sessionId, Object... payloads) {
        TestTopics.writeAll(REASONING, TestCrypto.sealed(REASONING, sessionRecords(tenant, sessionId, payloads), kms));
    }

    /**
     * As {@link #sealedSession(String, String, Object...)}, every event recorded (and occurring) at {@code at}: a
     * session last active then.
     */
    public static void sealedSessionRecordedAt(Instant at, String tenant, String sessionId, Object... payloads) {
        List<Map.Entry<String, ReasoningEvent>> records = new ArrayList<>();
        for (Object payload : payloads) {
            EventHeader header = header(tenant, at);
            header.setRecordedAt(at);
            records.add(Map.entry(sessionId, ReasoningEvent.newBuilder().setHeader(header).setSessionId(sessionId)
                    .setPayload(payload).build()));
        }
        TestTopics.writeAll(REASONING, TestCrypto.sealed(REASONING, records, TestCrypto.kms()));
    }

    private static List<Map.Entry<String, ReasoningEvent>> sessionRecords(String tenant, String sessionId,
            Object... payloads) {
        List<Map.Entry<String, ReasoningEvent>> records = new ArrayList<>();
        for (Object payload : payloads) {
            records.add(Map.entry(sessionId, reasoning(tenant, sessionId, payload)));
        }
        return records;
    }

    /** Message {@code index} of a chat, a user's when even and the assistant's when odd, at {@code t0} + index s. */
    public static MessageRecorded message(int index, String content, Instant t0) {
        return MessageRecorded.newBuilder().setMessageIndex(index)
                .setRole(index % 2 == 0 ? MessageRole.USER : MessageRole.ASSISTANT).setContent(content)
                .setTimestamp(t0.plusSeconds(index)).build();
    }

    public static Decision decision(String version, String infoNeed, String action, String confidence,
            String reasoning) {
        return Decision.newBuilder().setVersion(version).setInfoNeedType(infoNeed).setDecisionAction(action)
                .setConfidenceLevel(confidence).setReasoning(reasoning).build();
    }

    /** A decision set (design.md § Decision sets): the active decision REQUIRE_COMM (v1.0.0) and {@code shadows}. */
    public static DecisionEvent decisionSet(String tenant, String decisionSetId, String messageId, String sessionId,
            Instant at, List<Decision> shadows) {
        return decisionSet(tenant, decisionSetId, messageId, sessionId, at, decision(null, "EXTERNAL_FACT_UNCERTAIN",
                "REQUIRE_COMM", "low", "Time-sensitive query requires current data"), shadows);
    }

    public static DecisionEvent decisionSet(String tenant, String decisionSetId, String messageId, String sessionId,
            Instant at, Decision active, List<Decision> shadows) {
        List<String> versions = shadows.stream().map(Decision::getVersion).toList();
        return DecisionEvent.newBuilder().setHeader(header(tenant, at)).setMessageId(messageId)
                .setPayload(DecisionSetRecorded.newBuilder().setDecisionSetId(decisionSetId).setMessageId(messageId)
                        .setSessionId(sessionId).setQuestionText("What is the latest Python version?")
                        .setQuestionHash(1234567890L).setActiveVersion("v1.0.0").setShadowVersions(versions)
                        .setActiveDecision(active)
                        .setShadowDecisions(shadows)
                        .setContextSnapshot("{\"execution_phase\":\"planning\",\"rag_chunks\":3}")
                        .setTimestamp(at).build())
                .build();
    }

    public static SignalEvent signal(String tenant, String messageId, String sessionId, SignalType type, Object data,
            Instant at) {
        return SignalEvent.newBuilder().setHeader(header(tenant, at)).setMessageId(messageId)
                .setPayload(BehaviorSignalRecorded.newBuilder().setMessageId(messageId).setSessionId(sessionId)
                        .setSignalType(type).setSignalData(data).setTimestamp(at).build())
                .build();
    }
}
