package dev.hindsight.ingest.batch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hindsight.events.decisions.DecisionEvent;
import dev.hindsight.events.reasoning.ReasoningEvent;
import dev.hindsight.events.signals.SignalEvent;
import dev.hindsight.ingest.audit.AuditEvents;
import dev.hindsight.ingest.request.Caller;
import dev.hindsight.ingest.request.EventIds;
import dev.hindsight.ingest.request.RequestReader;
import dev.hindsight.ingest.session.AppendMessagesRequest;
import dev.hindsight.ingest.session.SessionDetailsRequests;
import dev.hindsight.ingest.session.SessionEventMapper;
import dev.hindsight.ingest.session.StartSessionRequest;
import dev.hindsight.platform.kafka.Publisher.Outgoing;
import dev.hindsight.platform.problem.Problem.FieldError;
import dev.hindsight.platform.problem.ProblemException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a batch body into its items: each item's events, or every reason it is rejected, named by its path
 * ({@code items[3].body.messages[0].role}). An item with any problem is rejected whole; the others are unaffected.
 */
final class BatchItems {

    /** Largest batch accepted; larger ones are refused whole with 400. */
    static final int MAX_ITEMS = 1000;

    /** An item's events, one list per topic, and what identifies it in the answer. */
    record Parsed(String sessionId, String messageId, List<Outgoing<ReasoningEvent>> reasoning,
            List<Outgoing<DecisionEvent>> decisions, List<Outgoing<SignalEvent>> signals) {
    }

    /** Per item, in request order: its events (null when it is rejected) and the reasons it is rejected. */
    record Read(List<Parsed> parsed, List<List<FieldError>> rejections) {
    }

    private final ObjectMapper json;
    private final RequestReader reader;
    private final AuditEvents audit;
    private final SessionEventMapper sessions;

    BatchItems(ObjectMapper json, RequestReader reader, AuditEvents audit, SessionEventMapper sessions) {
        this.json = json;
        this.reader = reader;
        this.audit = audit;
        this.sessions = sessions;
    }

    /**
     * The items of {@code bytes}; one {@code Idempotency-Key} covers the batch, each item getting its own scope within
     * it. Throws a 400 problem when the body is not a batch (no items, too many items), and Jackson's exception for
     * malformed JSON (which the REST layer answers as a 400 problem too).
     */
    Read read(byte[] bytes, Caller sender, String idempotencyKey) throws IOException {
        JsonNode body = bytes == null || bytes.length == 0 ? null : json.readTree(bytes);
        JsonNode items = body != null && body.isObject() ? body.get("items") : null;
        if (items == null || !items.isArray() || items.isEmpty()) {
            throw ProblemException.badRequest("Not a batch", List.of(new FieldError("items",
                    "required: a non-empty array of {type, session_id, body}")));
        }
        if (items.size() > MAX_ITEMS) {
            throw ProblemException.badRequest("Batch too large", List.of(new FieldError("items",
                    "at most " + MAX_ITEMS + " items per batch; got " + items.size())));
        }
        List<Parsed> parsed = new ArrayList<>(items.size());
        List<List<FieldError>> rejections = new ArrayList<>(items.size());
        for (int i = 0; i < items.size(); i++) {
            List<FieldError> errors = new ArrayList<>();
            parsed.add(item(items.get(i), "items[" + i + "]", itemCaller(sender, idempotencyKey, i), errors));
            rejections.add(errors);
        }
        return new Read(parsed, rejections);
    }

    /** The item's events, or null with its reasons in {@code errors} (which the item has to itself). */
    private Parsed item(JsonNode item, String path, Caller caller, List<FieldError> errors) {
        if (item == null || !item.isObject()) {
            errors.add(new FieldError(path, "must be an object {type, session_id, body}"));
            return null;
        }
        for (var names = item.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!List.of("type", "session_id", "body").contains(name)) {
                errors.add(new FieldError(path + "." + name, "unknown field '" + name + "'"));
            }
        }
        String type = item.path("type").asText("");
        Class<?> requestType = requestType(type);
        if (requestType == null) {
            errors.add(new FieldError(path + ".type", "must be one of session, messages, positions, "
                    + "activities, complete, decision_set, behavior_signal"));
            return null;
        }
        String sessionId = null;
        if (isSessionScoped(type)) {
            JsonNode sessionNode = item.get("session_id");
            sessionId = sessionNode != null && sessionNode.isTextual() ? sessionNode.textValue() : null;
            if (!isSessionId(sessionId)) {
                errors.add(new FieldError(path + ".session_id", "required: " + EventIds.MESSAGE + ", at most 128"));
            }
        }
        JsonNode body = item.get("body");
        String bodyPath = path + ".body";
        // The audit bodies are read by AuditEvents, which knows their seed envelope; the others are bound here.
        Object request = requestType == JsonNode.class ? body : reader.read(body, requestType, bodyPath, errors);
        // An audit body is checked as it is read, so it is read whatever else is wrong: every problem is reported.
        if (requestType != JsonNode.class && (request == null || !errors.isEmpty())) {
            return null;
        }
        Parsed parsed;
        try {
            parsed = events(type, sessionId, request, bodyPath, caller, errors);
        } catch (ProblemException rejected) {
            // Cross-field rules of the single-item endpoints, reported under this item's body.
            for (FieldError error : rejected.problem().errors()) {
                errors.add(new FieldError(RequestReader.join(bodyPath, error.field()), error.message()));
            }
            return null;
        }
        // An item with any problem, an unknown field included, is rejected whole: none of its events are published.
        return errors.isEmpty() ? parsed : null;
    }

    private static Class<?> requestType(String type) {
        return switch (type) {
            case "session" -> StartSessionRequest.class;
            case "messages" -> AppendMessagesRequest.class;
            case "positions" -> SessionDetailsRequests.RecordPositions.class;
            case "activities" -> SessionDetailsRequests.RecordActivities.class;
            case "complete" -> SessionDetailsRequests.CompleteSession.class;
            case "decision_set", "behavior_signal" -> JsonNode.class;
            default -> null;
        };
    }

    private static boolean isSessionScoped(String type) {
        return switch (type) {
            case "messages", "positions", "activities", "complete" -> true;
            default -> false;
        };
    }

    private static boolean isSessionId(String sessionId) {
        return sessionId != null && sessionId.length() <= 128 && EventIds.isWellFormed(sessionId);
    }

    private static Caller itemCaller(Caller sender, String idempotencyKey, int index) {
        return sender.withIdempotencyKey(idempotencyKey == null ? null : idempotencyKey + "#" + index);
    }

    /**
     * The item's events; null, or events the caller discards, when {@code errors} received reasons; cross-field rules
     * throw a 400 problem.
     */
    private Parsed events(String type, String sessionId, Object request, String bodyPath, Caller caller,
            List<FieldError> errors) {
        return switch (type) {
            case "session" -> {
                Outgoing<ReasoningEvent> started = sessions.sessionStarted((StartSessionRequest) request, caller);
                yield reasoning(started.key(), List.of(started));
            }
            case "messages" -> reasoning(sessionId,
                    sessions.messagesRecorded(sessionId, (AppendMessagesRequest) request, caller));
            case "positions" -> reasoning(sessionId, sessions.positionsRecorded(sessionId,
                    (SessionDetailsRequests.RecordPositions) request, caller));
            case "activities" -> reasoning(sessionId, sessions.activitiesRecorded(sessionId,
                    ((SessionDetailsRequests.RecordActivities) request).events(), "events", false, caller));
            case "complete" -> reasoning(sessionId, List.of(sessions.sessionCompleted(sessionId,
                    (SessionDetailsRequests.CompleteSession) request, caller)));
            case "decision_set" -> {
                Outgoing<DecisionEvent> event = audit.decisionSet((JsonNode) request, bodyPath, caller, errors);
                yield event == null ? null : new Parsed(null, event.key(), List.of(), List.of(event), List.of());
            }
            case "behavior_signal" -> {
                Outgoing<SignalEvent> event = audit.signal((JsonNode) request, bodyPath, caller, errors);
                yield event == null ? null : new Parsed(null, event.key(), List.of(), List.of(), List.of(event));
            }
            default -> throw new IllegalArgumentException("not an item type: " + type);
        };
    }

    private static Parsed reasoning(String sessionId, List<Outgoing<ReasoningEvent>> events) {
        return new Parsed(sessionId, null, events, List.of(), List.of());
    }
}
