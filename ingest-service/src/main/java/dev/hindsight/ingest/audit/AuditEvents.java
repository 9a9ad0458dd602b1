package dev.hindsight.ingest.audit;

import dev.hindsight.platform.redact.Redactor;
import com.fasterxml.jackson.databind.JsonNode;
import dev.hindsight.events.decisions.DecisionEvent;
import dev.hindsight.events.signals.SignalEvent;
import dev.hindsight.ingest.request.RequestReader;
import dev.hindsight.ingest.request.SeedEnvelope;
import dev.hindsight.ingest.request.Sender;
import dev.hindsight.platform.crypto.Kms;
import dev.hindsight.platform.kafka.Publisher.Outgoing;
import dev.hindsight.platform.problem.Problem.FieldError;
import dev.hindsight.platform.problem.ProblemException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads audit events (decision sets, behaviour signals) from JSON (whole bodies or batch items) into events ready to
 * publish.
 */
@ApplicationScoped
public class AuditEvents {

    private final RequestReader reader;
    private final AuditEventMapper mapper;

    @Inject
    public AuditEvents(RequestReader reader, Redactor redactor, Kms kms) {
        this(reader, Clock.systemUTC(), redactor, kms);
    }

    /** With the clock that stamps the events it reads (a fixed one in tests that compare events). */
    public AuditEvents(RequestReader reader, Clock clock, Redactor redactor, Kms kms) {
        this.reader = reader;
        this.mapper = new AuditEventMapper(clock, reader, redactor, kms);
    }

    /** Reads a whole body as one decision set; a 400 names every problem. */
    public Outgoing<DecisionEvent> readDecisionSet(JsonNode body, Sender caller) {
        List<FieldError> errors = new ArrayList<>();
        Outgoing<DecisionEvent> event = decisionSet(body, "", caller, errors);
        if (event == null) {
            throw ProblemException.badRequest("The decision set is invalid", errors);
        }
        return event;
    }

    /** Reads a whole body as one signal; a 400 names every problem. */
    public Outgoing<SignalEvent> readSignal(JsonNode body, Sender caller) {
        List<FieldError> errors = new ArrayList<>();
        Outgoing<SignalEvent> event = signal(body, "", caller, errors);
        if (event == null) {
            throw ProblemException.badRequest("The behaviour signal is invalid", errors);
        }
        return event;
    }

    /** The event, or null with the reasons added to {@code errors}. */
    public Outgoing<DecisionEvent> decisionSet(JsonNode body, String path, Sender caller,
            List<FieldError> errors) {
        SeedEnvelope envelope = SeedEnvelope.unwrap(body, "DECISION_SET_CREATED", path, errors);
        if (envelope == null) {
            return null;
        }
        AuditRequests.DecisionSet request = reader.read(envelope.payload(), AuditRequests.DecisionSet.class,
                envelope.prefix(), errors);
        return request == null ? null
                : mapper.decisionSet(request, envelope.level(), envelope.fieldPrefix(), caller, errors);
    }

    /** The event, or null with the reasons added to {@code errors}. */
    public Outgoing<SignalEvent> signal(JsonNode body, String path, Sender caller,
            List<FieldError> errors) {
        SeedEnvelope envelope = SeedEnvelope.unwrap(body, "USER_BEHAVIOR_SIGNAL", path, errors);
        if (envelope == null) {
            return null;
        }
        AuditRequests.BehaviorSignal request = reader.read(envelope.payload(), AuditRequests.BehaviorSignal.class,
                envelope.prefix(), errors);
        return request == null ? null
                : mapper.behaviorSignal(request, envelope.level(), envelope.fieldPrefix(), caller, errors);
    }
}
