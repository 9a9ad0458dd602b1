package dev.hindsight.ingest.batch;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.util.TokenBuffer;
import dev.hindsight.events.decisions.DecisionEvent;
import dev.hindsight.events.reasoning.ReasoningEvent;
import dev.hindsight.events.signals.SignalEvent;
import dev.hindsight.ingest.audit.AuditEvents;
import dev.hindsight.ingest.request.EventIds;
import dev.hindsight.ingest.request.RequestReader;
import dev.hindsight.ingest.request.Sender;
import dev.hindsight.ingest.session.AppendMessagesRequest;
import dev.hindsight.ingest.session.SessionDetailsRequests;
import dev.hindsight.ingest.session.SessionEventMapper;
import dev.hindsight.ingest.session.StartSessionRequest;
import dev.hindsight.platform.kafka.Publisher.Outgoing;
import dev.hindsight.platform.problem.Problem.FieldError;
import dev.hindsight.platform.problem.ProblemException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

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
     *
     * <p>The body is read in one pass of a streaming parser, each item's body bound straight into its request type.
     * Building a tree of the whole body first and then binding each item's subtree would materialize every item twice
     * (docs/benchmarks.md).
     */
    Read read(byte[] bytes, Sender sender, String idempotencyKey) throws IOException {
        if (bytes == null || bytes.length == 0) {
            throw notABatch();
        }
        Read read = null;
        try (JsonParser parser = json.createParser(bytes)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                throw notABatch();
            }
            // Fields other than items are ignored; of repeated items arrays the last counts, as in a JSON tree.
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String name = parser.currentName();
                JsonToken value = parser.nextToken();
                if ("items".equals(name) && value == JsonToken.START_ARRAY) {
                    read = items(parser, sender, idempotencyKey);
                } else {
                    read = "items".equals(name) ? null : read;
                    parser.skipChildren();
                }
            }
        }
        if (read == null || read.parsed().isEmpty()) {
            throw notABatch();
        }
        return read;
    }

    private static ProblemException notABatch() {
        return ProblemException.badRequest("Not a batch", List.of(new FieldError("items",
                "required: a non-empty array of {type, session_id, body}")));
    }

    /** The items of the array the parser is on; leaves it on the array's end. */
    private Read items(JsonParser parser, Sender sender, String idempotencyKey) throws IOException {
        List<Parsed> parsed = new ArrayList<>();
        List<List<FieldError>> rejections = new ArrayList<>();
        int count = 0;
        while (parser.nextToken() != JsonToken.END_ARRAY) {
            if (count >= MAX_ITEMS) {
                // Refused whole, but read to the end to say how many there were (and whether the JSON is sound).
                parser.skipChildren();
            } else {
                List<FieldError> errors = new ArrayList<>();
                parsed.add(item(parser, "items[" + count + "]", itemCaller(sender, idempotencyKey, count), errors));
                rejections.add(errors);
            }
            count++;
        }
        if (count > MAX_ITEMS) {
            throw ProblemException.badRequest("Batch too large", List.of(new FieldError("items",
                    "at most " + MAX_ITEMS + " items per batch; got " + count)));
        }
        return new Read(parsed, rejections);
    }

    /**
     * The item the parser is on: its events, or null with its reasons in {@code errors} (which the item has to itself).
     * Leaves the parser on the item's last token. Every problem is reported, in this order: unknown or repeated fields,
     * then the type, the session id and the body.
     */
    private Parsed item(JsonParser parser, String path, Sender caller, List<FieldError> errors) throws IOException {
        if (parser.currentToken() != JsonToken.START_OBJECT) {
            errors.add(new FieldError(path, "must be an object {type, session_id, body}"));
            parser.skipChildren();
            return null;
        }
        String type = null;
        String sessionId = null;
        Set<String> given = new HashSet<>(4);
        boolean repeated = false;
        // The body as bound while reading (when the type came first, as producers write it), else kept as tokens.
        Object request = null;
        TokenBuffer pending = null;
        List<FieldError> bodyErrors = new ArrayList<>();
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String name = parser.currentName();
            JsonToken value = parser.nextToken();
            if (!given.add(name)) {
                // Reported once: an unknown field when first seen, one of the item's own fields as repeated.
                if (name.equals("type") || name.equals("session_id") || name.equals("body")) {
                    errors.add(new FieldError(path + "." + name, "given more than once"));
                    repeated = true;
                }
                parser.skipChildren();
                continue;
            }
            switch (name) {
                case "type" -> {
                    type = value == JsonToken.VALUE_STRING ? parser.getText() : "";
                    parser.skipChildren();
                }
                case "session_id" -> {
                    sessionId = value == JsonToken.VALUE_STRING ? parser.getText() : null;
                    parser.skipChildren();
                }
                case "body" -> {
                    Class<?> known = type == null ? null : requestType(type);
                    if (known == null) {
                        pending = new TokenBuffer(parser);
                        pending.copyCurrentStructure(parser);
                    } else {
                        request = body(parser, known, path + ".body", bodyErrors);
                    }
                }
                default -> {
                    errors.add(new FieldError(path + "." + name, "unknown field '" + name + "'"));
                    parser.skipChildren();
                }
            }
        }
        Class<?> requestType = requestType(type == null ? "" : type);
        if (requestType == null) {
            errors.add(new FieldError(path + ".type", "must be one of session, messages, positions, "
                    + "activities, complete, decision_set, behavior_signal"));
            return null;
        }
        if (isSessionScoped(type) && !isSessionId(sessionId)) {
            errors.add(new FieldError(path + ".session_id", "required: " + EventIds.MESSAGE + ", at most 128"));
        }
        if (repeated) {
            // Which value was meant cannot be known, and the body may be bound as the first of two types.
            return null;
        }
        String bodyPath = path + ".body";
        if (pending != null) {
            try (JsonParser buffered = pending.asParser(parser.getCodec())) {
                buffered.nextToken();
                request = body(buffered, requestType, bodyPath, bodyErrors);
            }
        } else if (!given.contains("body") && requestType != JsonNode.class) {
            bodyErrors.add(new FieldError(bodyPath, "must be an object"));
        }
        errors.addAll(bodyErrors);
        // The audit bodies are read by AuditEvents, which knows their seed envelope; the others are bound here.
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

    /** The body the parser is on, as its request type (a JSON tree for the audit types, which AuditEvents reads). */
    private Object body(JsonParser parser, Class<?> requestType, String bodyPath, List<FieldError> errors)
            throws IOException {
        return requestType == JsonNode.class ? json.readTree(parser) : reader.read(parser, requestType, bodyPath, errors);
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

    private static Sender itemCaller(Sender sender, String idempotencyKey, int index) {
        return sender.withIdempotencyKey(idempotencyKey == null ? null : idempotencyKey + "#" + index);
    }

    /**
     * The item's events; null, or events the caller discards, when {@code errors} received reasons; cross-field rules
     * throw a 400 problem.
     */
    private Parsed events(String type, String sessionId, Object request, String bodyPath, Sender caller,
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
