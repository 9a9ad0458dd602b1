package dev.hindsight.ingest.session;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.hindsight.events.EventHeader;
import dev.hindsight.events.reasoning.ActivityRecorded;
import dev.hindsight.events.reasoning.ChatAttributes;
import dev.hindsight.events.reasoning.DebugAttributes;
import dev.hindsight.events.reasoning.LegacyToolInvocation;
import dev.hindsight.events.reasoning.MessageRecorded;
import dev.hindsight.events.reasoning.MessageRole;
import dev.hindsight.events.reasoning.PositionRecorded;
import dev.hindsight.events.reasoning.ReasoningEvent;
import dev.hindsight.events.reasoning.SessionCompleted;
import dev.hindsight.events.reasoning.SessionKind;
import dev.hindsight.events.reasoning.SessionOutcome;
import dev.hindsight.events.reasoning.SessionStarted;
import dev.hindsight.events.reasoning.StepType;
import dev.hindsight.events.reasoning.ThinkingStep;
import dev.hindsight.events.reasoning.TradingAttributes;
import dev.hindsight.ingest.request.EventIds;
import dev.hindsight.ingest.request.Sender;
import dev.hindsight.ingest.request.Timestamps;
import dev.hindsight.ingest.session.AppendMessagesRequest.Message;
import dev.hindsight.platform.kafka.EventHeaders;
import dev.hindsight.platform.kafka.Publisher.Outgoing;
import dev.hindsight.platform.problem.Problem.FieldError;
import dev.hindsight.platform.problem.ProblemException;
import dev.hindsight.platform.redact.Redactor;
import dev.hindsight.platform.tenant.TenantId;
import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * Turns validated session requests into {@code hindsight.reasoning.v1} events. Checks the rules a single field
 * cannot express (the attributes match the kind, step orders are unique, ...) and reports every violation at once.
 * Secrets are redacted as the tenant's policy says before anything is derived from what was sent: a message's id and
 * fingerprint come from its redacted text, so an identical re-send is the same event.
 */
public final class SessionEventMapper {

    private final Clock clock;
    private final Redactor redactor;

    public SessionEventMapper(Clock clock, Redactor redactor) {
        this.clock = clock;
        this.redactor = redactor;
    }

    public Outgoing<ReasoningEvent> sessionStarted(StartSessionRequest request, Sender caller) {
        List<FieldError> errors = new ArrayList<>();
        requireOnlyAttributesOf(request, errors);
        if (!errors.isEmpty()) {
            throw ProblemException.badRequest("The session does not match its kind", errors);
        }
        String sessionId = request.sessionId() != null ? request.sessionId()
                : request.kind() == StartSessionRequest.Kind.TRADING ? EventIds.derived("trading", request.trading().jobId(), request.trading().date().toString(), request.trading().model()).toString()
                : UUID.randomUUID().toString();
        UUID eventId = request.eventId() != null ? request.eventId()
                : caller.idempotencyKey() != null
                        ? EventIds.fromIdempotencyKey(caller.tenant(), caller.idempotencyKey(), "session")
                        : EventIds.derived("session-started", sessionId);
        Instant startedAt = instant(request.startedAt());
        SessionStarted started = SessionStarted.newBuilder()
                .setKind(SessionKind.valueOf(request.kind().name()))
                .setStartedAt(startedAt)
                .setTrading(request.trading() == null ? null : TradingAttributes.newBuilder()
                        .setJobId(request.trading().jobId())
                        .setDate(request.trading().date())
                        .setModel(request.trading().model())
                        .build())
                .setChat(request.chat() == null ? null : ChatAttributes.newBuilder()
                        .setAgent(request.chat().agent())
                        .setModel(request.chat().model())
                        .setTitle(request.chat().title())
                        .build())
                .setDebug(request.debug() == null ? null : DebugAttributes.newBuilder()
                        .setDeveloperId(request.debug().developerId())
                        .setTaskId(request.debug().taskId())
                        .setTaskDescription(request.debug().taskDescription())
                        .setRepoUrl(request.debug().repoUrl())
                        .setRepoCommitHash(request.debug().repoCommitHash())
                        .build())
                .setSubject(request.subject())
                .setLabels(request.labels() == null ? Map.of() : request.labels())
                .build();
        return event(sessionId, header(eventId, caller, startedAt), redactor.apply(caller.tenant(), started));
    }

    public List<Outgoing<ReasoningEvent>> messagesRecorded(String sessionId, AppendMessagesRequest request, Sender caller) {
        List<FieldError> errors = new ArrayList<>();
        Set<Integer> indexes = new HashSet<>();
        for (int i = 0; i < request.messages().size(); i++) {
            Message message = request.messages().get(i);
            String path = "messages[" + i + "]";
            if (!indexes.add(message.messageIndex())) {
                errors.add(new FieldError(path + ".message_index",
                        "message_index " + message.messageIndex() + " appears more than once in this request"));
            }
            checkSteps(message, path, errors);
        }
        if (!errors.isEmpty()) {
            throw ProblemException.badRequest("Some messages are inconsistent", errors);
        }
        List<Outgoing<ReasoningEvent>> events = new ArrayList<>(request.messages().size());
        for (Message sent : request.messages()) {
            Message message = redacted(sent, caller.tenant());
            Instant timestamp = instant(message.timestamp());
            UUID eventId = message.eventId() != null ? message.eventId()
                    : caller.idempotencyKey() != null
                            ? EventIds.fromIdempotencyKey(caller.tenant(), caller.idempotencyKey(),
                                    "message/" + message.messageIndex())
                            : messageEventId(sessionId, message);
            events.add(event(sessionId, header(eventId, caller, timestamp), toEvent(message, timestamp)));
        }
        return events;
    }

    public List<Outgoing<ReasoningEvent>> positionsRecorded(String sessionId, SessionDetailsRequests.RecordPositions request,
            Sender caller) {
        List<FieldError> errors = new ArrayList<>();
        Set<Integer> actionIds = new HashSet<>();
        for (int i = 0; i < request.positions().size(); i++) {
            if (!actionIds.add(request.positions().get(i).actionId())) {
                errors.add(new FieldError("positions[" + i + "].action_id", "action_id "
                        + request.positions().get(i).actionId() + " appears more than once in this request"));
            }
        }
        if (!errors.isEmpty()) {
            throw ProblemException.badRequest("Some positions are inconsistent", errors);
        }
        List<Outgoing<ReasoningEvent>> events = new ArrayList<>();
        for (SessionDetailsRequests.Position position : request.positions()) {
            PositionRecorded payload = PositionRecorded.newBuilder()
                    .setActionId(position.actionId())
                    .setActionType(position.actionType().toString())
                    .setSymbol(position.symbol())
                    .setAmount(position.amount())
                    .setPrice(position.price())
                    .setCashAfter(position.cashAfter())
                    .setPortfolioValue(position.portfolioValue())
                    .setDailyProfit(position.dailyProfit())
                    .setDailyReturnPct(position.dailyReturnPct())
                    .build();
            UUID eventId = chooseId(position.eventId(), caller, "position/" + position.actionId(),
                    () -> EventIds.digest("position").add(sessionId).add(position.actionId())
                            .add(position.actionType()).add(position.symbol()).add(position.amount())
                            .add(position.price()).add(position.cashAfter()).add(position.portfolioValue())
                            .add(position.dailyProfit()).add(position.dailyReturnPct()).uuid());
            events.add(event(sessionId, header(eventId, caller, instant(position.timestamp())), payload));
        }
        return events;
    }

    public List<Outgoing<ReasoningEvent>> activitiesRecorded(String sessionId,
            List<SessionDetailsRequests.Activity> activities, String pathPrefix, boolean sequenceFromPosition,
            Sender caller) {
        List<FieldError> errors = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        List<Outgoing<ReasoningEvent>> events = new ArrayList<>();
        for (int i = 0; i < activities.size(); i++) {
            SessionDetailsRequests.Activity activity = activities.get(i);
            String path = pathPrefix + "[" + i + "]";
            if (!ids.add(activity.eventId())) {
                errors.add(new FieldError(path + ".event_id", "event_id appears more than once"));
            }
            String when = activity.timestamp() != null ? activity.timestamp() : activity.timestampIso();
            Instant timestamp = Timestamps.parse(when).orElse(null);
            if (when == null) {
                errors.add(new FieldError(path + ".timestamp", "required (timestamp or timestamp_iso)"));
            } else if (timestamp == null) {
                errors.add(new FieldError(path + (activity.timestamp() != null ? ".timestamp" : ".timestamp_iso"),
                        "must be " + Timestamps.EXPECTED));
            }
            Object payload = ActivityPayloads.read(activity.eventType(), activity.payload(), path + ".event_type",
                    path + ".payload", errors);
            if (payload == null || timestamp == null) {
                continue;
            }
            int sequence = sequenceFromPosition ? i : activity.sequence() == null ? -1 : activity.sequence();
            ActivityRecorded recorded = ActivityRecorded.newBuilder()
                    .setActivityId(activity.eventId())
                    .setSequence(sequence)
                    .setTimestamp(timestamp)
                    .setActivity(payload)
                    .build();
            UUID eventId = chooseId(null, caller, "activity/" + activity.eventId(),
                    () -> EventIds.derived("activity", sessionId, activity.eventId()));
            events.add(event(sessionId, header(eventId, caller, timestamp), redactor.apply(caller.tenant(), recorded)));
        }
        if (!errors.isEmpty()) {
            throw ProblemException.badRequest("Some events are invalid", errors);
        }
        return events;
    }

    public Outgoing<ReasoningEvent> sessionCompleted(String sessionId, SessionDetailsRequests.CompleteSession request,
            Sender caller) {
        Instant completedAt = instant(request.completedAt());
        SessionCompleted completed = SessionCompleted.newBuilder()
                .setOutcome(request.outcome() == null ? SessionOutcome.UNKNOWN
                        : SessionOutcome.valueOf(request.outcome().name()))
                .setCompletedAt(completedAt)
                .setFinalCodeDiff(request.finalCodeDiff())
                .setTotalMessages(request.totalMessages())
                .setSummaryHint(request.summaryHint())
                .setJudgeRequested(Boolean.TRUE.equals(request.judge()))
                .build();
        UUID eventId = chooseId(request.eventId(), caller, "completed",
                () -> EventIds.derived("completed", sessionId));
        return event(sessionId, header(eventId, caller, completedAt), redactor.apply(caller.tenant(), completed));
    }

    /**
     * The message with its secrets redacted as {@code tenant}'s policy says, every text field a message's event marks
     * as text (design.md § Redaction): content, tool input, legacy reasoning, and each step's and legacy tool's text,
     * arguments, result and error. JSON values are redacted among their values.
     */
    private Message redacted(Message m, TenantId tenant) {
        if (!redactor.redacts(tenant)) {
            return m;
        }
        List<AppendMessagesRequest.ThinkingStep> steps = m.thinkingSteps() == null ? null : m.thinkingSteps().stream()
                .map(s -> new AppendMessagesRequest.ThinkingStep(s.stepOrder(), s.stepType(),
                        redactor.text(tenant, s.content()), s.toolName(), redacted(s.toolArguments(), tenant),
                        redactor.text(tenant, s.toolResult()), redactor.text(tenant, s.toolError())))
                .toList();
        List<AppendMessagesRequest.LegacyTool> tools = m.tools() == null ? null : m.tools().stream()
                .map(t -> new AppendMessagesRequest.LegacyTool(t.name(), redacted(t.arguments(), tenant),
                        redactor.text(tenant, t.result()), redactor.text(tenant, t.error())))
                .toList();
        return new Message(m.eventId(), m.messageIndex(), m.role(), redactor.text(tenant, m.content()), m.toolName(),
                redacted(m.toolInput(), tenant), m.timestamp(), steps, redactor.text(tenant, m.reasoning()), tools);
    }

    /** A JSON value redacted: a string as text (or as the JSON document it holds), a container among its values. */
    private JsonNode redacted(JsonNode node, TenantId tenant) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return node;
        }
        if (node.isTextual()) {
            String redacted = redactor.text(tenant, node.textValue());
            return redacted.equals(node.textValue()) ? node : TextNode.valueOf(redacted);
        }
        redactor.tree(tenant, node);
        return node;
    }

    /** The producer's event id, else one from its Idempotency-Key, else one derived from the fact. */
    private static UUID chooseId(UUID given, Sender caller, String item, java.util.function.Supplier<UUID> derived) {
        if (given != null) {
            return given;
        }
        if (caller.idempotencyKey() != null) {
            return EventIds.fromIdempotencyKey(caller.tenant(), caller.idempotencyKey(), item);
        }
        return derived.get();
    }

    private static MessageRecorded toEvent(Message message, Instant timestamp) {
        List<ThinkingStep> steps = message.thinkingSteps() == null ? List.of() : message.thinkingSteps().stream()
                .sorted(java.util.Comparator.comparing(AppendMessagesRequest.ThinkingStep::stepOrder))
                .map(step -> ThinkingStep.newBuilder()
                        .setStepOrder(step.stepOrder())
                        .setStepType(StepType.valueOf(step.stepType().name()))
                        .setContent(step.content())
                        .setToolName(step.toolName())
                        .setToolArguments(jsonText(step.toolArguments()))
                        .setToolResult(step.toolResult())
                        .setToolError(step.toolError())
                        .build())
                .toList();
        List<LegacyToolInvocation> legacyTools = message.tools() == null ? null : message.tools().stream()
                .map(tool -> LegacyToolInvocation.newBuilder()
                        .setToolName(tool.name())
                        .setToolArguments(jsonText(tool.arguments()))
                        .setToolResult(tool.result())
                        .setToolError(tool.error())
                        .build())
                .toList();
        return MessageRecorded.newBuilder()
                .setMessageIndex(message.messageIndex())
                .setRole(MessageRole.valueOf(message.role().name()))
                .setContent(message.content())
                .setToolName(message.toolName())
                .setToolInput(json(message.toolInput()))
                .setTimestamp(timestamp)
                .setThinkingSteps(steps)
                .setLegacyReasoning(message.reasoning())
                .setLegacyTools(legacyTools)
                .build();
    }

    private static void checkSteps(Message message, String path, List<FieldError> errors) {
        List<AppendMessagesRequest.ThinkingStep> steps = message.thinkingSteps();
        if (steps == null || steps.isEmpty()) {
            return;
        }
        if (message.role() != AppendMessagesRequest.Role.ASSISTANT) {
            errors.add(new FieldError(path + ".thinking_steps", "only assistant messages carry thinking steps"));
        }
        Set<Integer> orders = new HashSet<>();
        for (int s = 0; s < steps.size(); s++) {
            AppendMessagesRequest.ThinkingStep step = steps.get(s);
            String stepPath = path + ".thinking_steps[" + s + "]";
            if (!orders.add(step.stepOrder())) {
                errors.add(new FieldError(stepPath + ".step_order",
                        "step_order " + step.stepOrder() + " appears more than once in this message"));
            }
            if (step.stepType() == AppendMessagesRequest.StepType.REASONING
                    && (step.content() == null || step.content().isBlank())) {
                errors.add(new FieldError(stepPath + ".content", "a reasoning step needs content"));
            }
            if (step.stepType() == AppendMessagesRequest.StepType.TOOL
                    && (step.toolName() == null || step.toolName().isBlank())) {
                errors.add(new FieldError(stepPath + ".tool_name", "a tool step needs tool_name"));
            }
        }
    }

    private static void requireOnlyAttributesOf(StartSessionRequest request, List<FieldError> errors) {
        StartSessionRequest.Kind kind = request.kind();
        attribute(kind == StartSessionRequest.Kind.TRADING, request.trading(), "trading", kind, errors);
        attribute(kind == StartSessionRequest.Kind.DEBUG, request.debug(), "debug", kind, errors);
        if (kind != StartSessionRequest.Kind.CHAT && request.chat() != null) {
            errors.add(new FieldError("chat", "only a chat session has chat attributes, this one is " + kind));
        }
    }

    private static void attribute(boolean required, Object value, String field, StartSessionRequest.Kind kind,
            List<FieldError> errors) {
        if (required && value == null) {
            errors.add(new FieldError(field, "required for a " + kind + " session"));
        } else if (!required && value != null) {
            errors.add(new FieldError(field, "only a " + field + " session has " + field + " attributes, this one is "
                    + kind));
        }
    }

    private EventHeader header(UUID eventId, Sender caller, Instant occurredAt) {
        return EventHeaders.create(eventId, caller.tenant(), caller.principal(), caller.client(), occurredAt, clock);
    }

    private Instant instant(OffsetDateTime time) {
        return time == null ? clock.instant().truncatedTo(java.time.temporal.ChronoUnit.MILLIS)
                : time.toInstant().truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
    }

    private static Outgoing<ReasoningEvent> event(String sessionId, EventHeader header, Object payload) {
        ReasoningEvent event = ReasoningEvent.newBuilder()
                .setHeader(header)
                .setSessionId(sessionId)
                .setPayload(payload)
                .build();
        return new Outgoing<>(sessionId, event, header.getEventId().toString());
    }

    /**
     * Tool arguments as the JSON text they are (a string quoted), as the schema says: readers then get back exactly
     * the JSON value the producer sent, a string or a number included.
     */
    private static String jsonText(JsonNode node) {
        return node == null || node.isNull() || node.isMissingNode() ? null : node.toString();
    }

    /**
     * Tool input as sent (a string as it is, structured input as JSON text), and every JSON value's part of a message's
     * identity: the event ids of re-sent messages must not change between versions.
     */
    private static String json(JsonNode node) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return null;
        }
        return node.isTextual() ? node.textValue() : node.toString();
    }

    /**
     * Identity of a message's event: the session, the index and everything the message says, so an identical
     * re-send is the same event and a different message at a taken index is not.
     */
    private static UUID messageEventId(String sessionId, Message message) {
        EventIds.Digest digest = EventIds.digest("message").add(sessionId).add(message.messageIndex())
                .add(message.role()).add(message.content()).add(message.toolName()).add(json(message.toolInput()))
                .add(message.timestamp() == null ? null : message.timestamp().toInstant())
                .add(message.reasoning());
        if (message.thinkingSteps() != null) {
            for (AppendMessagesRequest.ThinkingStep step : message.thinkingSteps()) {
                digest.add(step.stepOrder()).add(step.stepType()).add(step.content()).add(step.toolName())
                        .add(json(step.toolArguments())).add(step.toolResult()).add(step.toolError());
            }
        }
        if (message.tools() != null) {
            for (AppendMessagesRequest.LegacyTool tool : message.tools()) {
                digest.add(tool.name()).add(json(tool.arguments())).add(tool.result()).add(tool.error());
            }
        }
        return digest.uuid();
    }
}
