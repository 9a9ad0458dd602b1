package dev.hindsight.ingest.audit;

import dev.hindsight.platform.redact.Redactor;
import com.fasterxml.jackson.databind.JsonNode;
import dev.hindsight.events.decisions.Decision;
import dev.hindsight.events.decisions.DecisionEvent;
import dev.hindsight.events.decisions.DecisionSetRecorded;
import dev.hindsight.events.signals.BehaviorSignalRecorded;
import dev.hindsight.events.signals.SignalEvent;
import dev.hindsight.events.signals.SignalType;
import dev.hindsight.ingest.request.EventIds;
import dev.hindsight.ingest.request.RequestReader;
import dev.hindsight.ingest.request.Sender;
import dev.hindsight.ingest.request.Timestamps;
import dev.hindsight.platform.Hashing;
import dev.hindsight.platform.crypto.Kms;
import dev.hindsight.platform.kafka.EventHeaders;
import dev.hindsight.platform.kafka.Publisher.Outgoing;
import dev.hindsight.platform.problem.Problem.FieldError;
import dev.hindsight.platform.tenant.TenantId;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

/**
 * Turns decision-set and behaviour-signal payloads into {@code hindsight.decisions.v1} and
 * {@code hindsight.signals.v1} events, keyed by message id. Records only: no score is computed here (ingest records
 * decision sets and signals and nothing more, design.md § Decision audit and shadow evaluation).
 */
final class AuditEventMapper {

    private final Clock clock;
    private final RequestReader reader;
    private final Redactor redactor;
    private final Kms kms;

    public AuditEventMapper(Clock clock, RequestReader reader, Redactor redactor, Kms kms) {
        this.clock = clock;
        this.reader = reader;
        this.redactor = redactor;
        this.kms = kms;
    }

    /** The event, or null when {@code errors} received the reasons (each under {@code path}). */
    public Outgoing<DecisionEvent> decisionSet(AuditRequests.DecisionSet request, String level, String path,
            Sender caller, List<FieldError> errors) {
        int before = errors.size();
        List<String> shadowVersions = request.shadowVersions() == null ? List.of() : request.shadowVersions();
        List<AuditRequests.Decision> shadows = request.shadowDecisions() == null ? List.of()
                : request.shadowDecisions();
        if (!shadows.isEmpty() && shadows.size() != shadowVersions.size()) {
            errors.add(new FieldError(path + "shadow_versions", "must name one version per shadow decision ("
                    + shadows.size() + " decisions, " + shadowVersions.size() + " versions)"));
        }
        Instant timestamp = timestamp(request.timestamp(), path + "timestamp", errors);
        if (errors.size() > before) {
            return null;
        }
        List<Decision> shadowDecisions = new ArrayList<>(shadows.size());
        for (int i = 0; i < shadows.size(); i++) {
            AuditRequests.Decision shadow = shadows.get(i);
            shadowDecisions.add(decision(shadow, shadow.version() != null ? shadow.version() : shadowVersions.get(i)));
        }
        String decisionSetId = request.decisionSetId() != null ? request.decisionSetId()
                : UUID.randomUUID().toString();
        DecisionSetRecorded recorded = DecisionSetRecorded.newBuilder()
                .setDecisionSetId(decisionSetId)
                .setMessageId(request.messageId())
                .setSessionId(request.sessionId())
                .setQuestionText(request.questionText())
                .setQuestionHash(0L)
                .setActiveVersion(request.activeVersion())
                .setShadowVersions(shadowVersions)
                .setActiveDecision(decision(request.activeDecision(),
                        request.activeDecision().version() != null ? request.activeDecision().version()
                                : request.activeVersion()))
                .setShadowDecisions(shadowDecisions)
                .setContextSnapshot(json(request.contextSnapshot()))
                .setLevel(level == null ? "info" : level)
                .setTimestamp(timestamp)
                .build();
        // Redacted before the question's hash is taken from it: a hash of a secret would let anyone test a guess.
        redactor.apply(caller.tenant(), recorded);
        recorded.setQuestionHash(request.questionHash() != null ? request.questionHash()
                : questionHash(kms, caller.tenant(), recorded.getQuestionText()));
        UUID eventId = id(request.eventId(), caller, "decision-set/" + decisionSetId,
                "decision-set", caller.tenant().value(), decisionSetId);
        var header = EventHeaders.create(eventId, caller.tenant(), caller.principal(), caller.client(), timestamp,
                clock);
        DecisionEvent event = DecisionEvent.newBuilder().setHeader(header).setMessageId(request.messageId())
                .setPayload(recorded).build();
        return new Outgoing<>(request.messageId(), event, eventId.toString());
    }

    /** The event, or null when {@code errors} received the reasons (each under {@code path}). */
    public Outgoing<SignalEvent> behaviorSignal(AuditRequests.BehaviorSignal request, String level, String path,
            Sender caller, List<FieldError> errors) {
        int before = errors.size();
        // Redacted before it is read and hashed into the signal's id: a hash of a secret would let anyone test a guess.
        redactor.tree(caller.tenant(), request.signalData());
        SignalData.Read data = SignalData.read(reader, request.signalType(), request.signalData(), path + "signal_data",
                errors);
        Instant timestamp = timestamp(request.timestamp(), path + "timestamp", errors);
        if (errors.size() > before) {
            return null;
        }
        BehaviorSignalRecorded recorded = BehaviorSignalRecorded.newBuilder()
                .setMessageId(request.messageId())
                .setSessionId(request.sessionId())
                .setSignalType(SignalType.valueOf(request.signalType().name()))
                .setSignalData(data.data())
                .setExtraData(data.extra())
                .setLevel(level == null ? "info" : level)
                .setTimestamp(timestamp)
                .build();
        // Without a producer id, a signal is identified by everything it says, including when it happened.
        UUID eventId = id(request.eventId(), caller, "signal/" + request.messageId() + "/" + request.signalType(),
                "signal", caller.tenant().value(), request.messageId(), request.signalType().toString(),
                request.timestamp() == null ? UUID.randomUUID().toString() : timestamp.toString(),
                Hashing.sha256Hex(String.valueOf(request.signalData())));
        var header = EventHeaders.create(eventId, caller.tenant(), caller.principal(), caller.client(), timestamp,
                clock);
        SignalEvent event = SignalEvent.newBuilder().setHeader(header).setMessageId(request.messageId())
                .setPayload(recorded).build();
        return new Outgoing<>(request.messageId(), event, eventId.toString());
    }

    /**
     * The integer hash of question_text for duplicate detection (design.md § Decision sets), computed when the producer
     * sends none: the first 63 bits of the tenant's keyed hash ({@link Kms#keyedHash}) of the trimmed, lower-cased,
     * whitespace-collapsed text (stable in any language). Keyed, so that a hash kept beside no text cannot be tested
     * against a guess of what a person asked.
     */
    static long questionHash(Kms kms, TenantId tenant, String questionText) {
        String normalized = questionText.trim().toLowerCase(Locale.ROOT).replaceAll("\\s+", " ");
        byte[] hash = kms.keyedHash(tenant, normalized.getBytes(StandardCharsets.UTF_8));
        return java.nio.ByteBuffer.wrap(hash).getLong() & Long.MAX_VALUE;
    }

    private static Decision decision(AuditRequests.Decision decision, String version) {
        return Decision.newBuilder()
                .setVersion(version)
                .setInfoNeedType(decision.infoNeedType())
                .setDecisionAction(decision.decisionAction())
                .setConfidenceLevel(decision.confidenceLevel())
                .setReasoning(decision.reasoning())
                .setRuleSignals(json(decision.ruleSignals()))
                .setLlmConfidence(json(decision.llmConfidence()))
                .build();
    }

    private Instant timestamp(String text, String path, List<FieldError> errors) {
        if (text == null) {
            return clock.instant().truncatedTo(ChronoUnit.MILLIS);
        }
        return Timestamps.parse(text).orElseGet(() -> {
            errors.add(new FieldError(path, "must be " + Timestamps.EXPECTED));
            return null;
        });
    }

    private static UUID id(UUID given, Sender caller, String item, String... parts) {
        if (given != null) {
            return given;
        }
        if (caller.idempotencyKey() != null) {
            return EventIds.fromIdempotencyKey(caller.tenant(), caller.idempotencyKey(), item);
        }
        return EventIds.derived(parts);
    }

    private static String json(JsonNode node) {
        return node == null || node.isNull() ? null : node.toString();
    }
}
