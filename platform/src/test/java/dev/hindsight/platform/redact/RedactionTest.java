package dev.hindsight.platform.redact;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hindsight.events.EventHeader;
import dev.hindsight.events.ProducerIdentity;
import dev.hindsight.events.decisions.DecisionEvent;
import dev.hindsight.events.evaluations.EvaluationEvent;
import dev.hindsight.events.insights.InsightEvent;
import dev.hindsight.events.keys.KeyEvent;
import dev.hindsight.events.memory.MemoryEvent;
import dev.hindsight.events.reasoning.ActivityRecorded;
import dev.hindsight.events.reasoning.CommandRun;
import dev.hindsight.events.reasoning.LegacyToolInvocation;
import dev.hindsight.events.reasoning.MessageRecorded;
import dev.hindsight.events.reasoning.MessageRole;
import dev.hindsight.events.reasoning.ReasoningEvent;
import dev.hindsight.events.reasoning.StepType;
import dev.hindsight.events.reasoning.ThinkingStep;
import dev.hindsight.events.signals.SignalEvent;
import dev.hindsight.events.spans.SpanEvent;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;

/**
 * Every field an event's schema marks as text is redacted, however deep it sits, and nothing else is touched; every
 * string field of every topic's schema is either marked or known to be an identifier or a code, so a field added
 * without a decision fails here.
 */
class RedactionTest {

    /** The string fields that are not text anyone wrote: ids, versions, codes, names of models and tools. */
    private static final Set<String> NOT_TEXT = Set.of(
            "EventHeader.event_id", "EventHeader.tenant_id", "ProducerIdentity.principal", "ProducerIdentity.client",
            "Decision.version", "Decision.info_need_type", "Decision.decision_action", "Decision.confidence_level",
            "DecisionEvent.message_id", "DecisionSetRecorded.decision_set_id", "DecisionSetRecorded.message_id",
            "DecisionSetRecorded.session_id", "DecisionSetRecorded.active_version",
            "DecisionSetRecorded.shadow_versions", "DecisionSetRecorded.level",
            "DecisionCompared.comparison_id", "DecisionCompared.decision_set_id", "DecisionCompared.message_id",
            "DecisionCompared.session_id", "DecisionCompared.active_version", "DecisionCompared.shadow_version",
            "DecisionCompared.active_action", "DecisionCompared.shadow_action", "DecisionCompared.similarity_model",
            "DecisionCompared.divergence_severity", "DecisionCompared.comparison_type", "DecisionCompared.level",
            "EvaluationEvent.message_id", "ShadowEvaluationCompleted.evaluation_id",
            "ShadowEvaluationCompleted.decision_set_id", "ShadowEvaluationCompleted.message_id",
            "ShadowEvaluationCompleted.session_id", "ShadowEvaluationCompleted.active_version",
            "ShadowEvaluationCompleted.signals_used", "ShadowEvaluationCompleted.evaluation_method",
            "ShadowEvaluationCompleted.trigger", "ShadowEvaluationCompleted.level",
            "InsightEvent.session_id", "MessageSummarized.summarizer", "SessionSummarized.summarizer",
            "RubricScore.dimension", "RubricScore.evidence_event_ids", "TraceJudged.judge",
            "ApiKeyIssued.sha256", "ApiKeyIssued.scopes", "ApiKeyIssued.replaces", "KeyEvent.key_id",
            "Embedding.model_id", "MemoryEmbedded.text_md5", "MemoryEvent.project_id", "MemoryEvent.memory_id",
            "MemoryMerged.source_session_ids", "MemoryMerged.merged_session_id", "MemoryRecorded.source_session_ids",
            "MemoryRecorded.via", "MemorySignalRecorded.session_id", "MemorySignalRecorded.source",
            "ActivityRecorded.activity_id", "LegacyToolInvocation.tool_name", "MessageRecorded.tool_name",
            "PositionRecorded.action_type", "PositionRecorded.symbol", "ReasoningEvent.session_id",
            "TradingAttributes.job_id", "TradingAttributes.model", "ChatAttributes.agent", "ChatAttributes.model",
            "DebugAttributes.developer_id", "DebugAttributes.task_id", "DebugAttributes.repo_commit_hash",
            "ThinkingStep.tool_name", "BehaviorSignalRecorded.message_id", "BehaviorSignalRecorded.session_id",
            "SmoothCompletion.user_satisfaction", "UserFollowupOverride.requested_action",
            "ReaskSameQuestion.previous_message_id", "PhaseViolation.violation_type", "PhaseViolation.current_phase",
            "PhaseViolation.required_phase", "BehaviorSignalRecorded.level", "SignalEvent.message_id",
            "SpanEvent.trace_id", "SpanRecorded.span_id", "SpanRecorded.parent_span_id", "SpanRecorded.name",
            "SpanRecorded.kind", "SpanRecorded.status_code", "SpanEventRecorded.name", "SpanRecorded.scope_name",
            "SpanRecorded.truncated", "LogRecorded.span_id", "LogRecorded.event_name", "LogRecorded.severity_text",
            "LogRecorded.scope_name", "LogRecorded.truncated",
            // Sealed events (ADR 0027): the key's id; the subject is an opaque id, personal and sealed, never rewritten.
            "Sealed.key_id", "SessionStarted.subject");

    private final Redaction redaction = new Redaction(new SecretScrubber());

    @Test
    void everyStringFieldOfEveryTopicIsTextOrKnownNotToBe() {
        Set<String> unclassified = new TreeSet<>();
        for (Schema schema : List.of(ReasoningEvent.SCHEMA$, DecisionEvent.SCHEMA$, SignalEvent.SCHEMA$,
                InsightEvent.SCHEMA$, EvaluationEvent.SCHEMA$, MemoryEvent.SCHEMA$, SpanEvent.SCHEMA$, KeyEvent.SCHEMA$)) {
            stringFields(schema, new TreeSet<>(), unclassified);
        }
        assertThat(unclassified).as("string fields neither marked %s nor listed as not text", Redaction.PROPERTY)
                .isEmpty();
    }

    @Test
    void everyMarkedFieldOfAMessageIsRedactedAndNothingElse() {
        String key = Fakes.awsAccessKeyId();
        String jwt = Fakes.jwt();
        String bearer = Fakes.token("b3arer", 30);
        ReasoningEvent event = ReasoningEvent.newBuilder()
                .setHeader(header())
                .setSessionId("session-" + key)
                .setPayload(MessageRecorded.newBuilder()
                        .setMessageIndex(3).setRole(MessageRole.ASSISTANT)
                        .setContent("content marker-1 " + key)
                        .setToolName("http-" + key)
                        .setToolInput("{\"q\": \"marker-2 " + jwt + "\"}")
                        .setTimestamp(Instant.parse("2026-11-29T10:00:00Z"))
                        .setThinkingSteps(List.of(
                                ThinkingStep.newBuilder().setStepOrder(0).setStepType(StepType.REASONING)
                                        .setContent("marker-3 the token is " + jwt).build(),
                                ThinkingStep.newBuilder().setStepOrder(1).setStepType(StepType.TOOL)
                                        .setToolName("fetch")
                                        .setToolArguments("{\"headers\": {\"Authorization\": \"Bearer " + bearer
                                                + "\"}, \"note\": \"marker-4\"}")
                                        .setToolResult("marker-5 " + key).setToolError("marker-6 " + jwt).build()))
                        .setLegacyReasoning("marker-7 " + key)
                        .setLegacyTools(List.of(LegacyToolInvocation.newBuilder().setToolName("shell")
                                .setToolArguments("[\"marker-8\", \"" + jwt + "\"]").setToolResult("marker-9 " + key)
                                .setToolError("marker-10 " + key).build()))
                        .build())
                .build();

        redaction.apply(event);

        String redacted = event.toString();
        assertThat(redacted).doesNotContain(jwt).doesNotContain(bearer);
        for (int i = 1; i <= 10; i++) {
            assertThat(redacted).containsPattern("marker-" + i + "(?![0-9])");
        }
        MessageRecorded message = (MessageRecorded) event.getPayload();
        assertThat(message.getContent()).isEqualTo("content marker-1 [REDACTED:aws-access-key-id]");
        assertThat(message.getThinkingSteps().get(1).getToolArguments())
                .isEqualTo("{\"headers\":{\"Authorization\":\"Bearer [REDACTED:bearer-token]\"},\"note\":\"marker-4\"}");
        // Not text: ids and names stay as they are, even when they look like a secret.
        assertThat(event.getSessionId()).isEqualTo("session-" + key);
        assertThat(message.getToolName()).isEqualTo("http-" + key);
    }

    @Test
    void aMarkedFieldInsideAUnionOfRecordsIsRedacted() {
        String key = Fakes.githubToken("p");
        ActivityRecorded activity = ActivityRecorded.newBuilder().setActivityId("a-1").setSequence(0)
                .setTimestamp(Instant.EPOCH)
                .setActivity(CommandRun.newBuilder().setCommandText("gh auth login --with-token " + key)
                        .setStdout("ok").setStderr("warning: " + key).setExitCode(0).build())
                .build();

        redaction.apply(activity);

        CommandRun run = (CommandRun) activity.getActivity();
        assertThat(run.getCommandText()).isEqualTo("gh auth login --with-token [REDACTED:github-token]");
        assertThat(run.getStderr()).isEqualTo("warning: [REDACTED:github-token]");
        assertThat(run.getStdout()).isEqualTo("ok");
    }

    @Test
    void redactingAnEventTwiceChangesNothingMoreAndAnEventWithoutSecretsNothingAtAll() {
        MessageRecorded clean = MessageRecorded.newBuilder().setMessageIndex(0).setRole(MessageRole.USER)
                .setContent("{ \"spaced\" : 1.50 }").setTimestamp(Instant.EPOCH).build();
        String before = clean.getContent();

        redaction.apply(clean);

        assertThat(clean.getContent()).isSameAs(before);
        MessageRecorded secret = MessageRecorded.newBuilder().setMessageIndex(0).setRole(MessageRole.USER)
                .setContent("password=hunter2 please").setTimestamp(Instant.EPOCH).build();
        String once = redaction.apply(secret).getContent();
        assertThat(redaction.apply(secret).getContent()).isEqualTo(once).isEqualTo("password=[REDACTED:password] please");
    }

    private static EventHeader header() {
        return EventHeader.newBuilder().setEventId(UUID.randomUUID()).setTenantId("tenant-a")
                .setOccurredAt(Instant.EPOCH).setRecordedAt(Instant.EPOCH)
                .setProducer(ProducerIdentity.newBuilder().setPrincipal("key-a").setClient("test").build()).build();
    }

    private static void stringFields(Schema schema, Set<String> seen, Set<String> unclassified) {
        switch (schema.getType()) {
            case RECORD -> {
                if (!seen.add(schema.getFullName())) {
                    return;
                }
                for (Schema.Field field : schema.getFields()) {
                    String name = schema.getName() + "." + field.name();
                    if (holdsString(field.schema()) && field.getProp(Redaction.PROPERTY) == null
                            && !NOT_TEXT.contains(name)) {
                        unclassified.add(name);
                    }
                    stringFields(field.schema(), seen, unclassified);
                }
            }
            case UNION -> schema.getTypes().forEach(s -> stringFields(s, seen, unclassified));
            case ARRAY -> stringFields(schema.getElementType(), seen, unclassified);
            case MAP -> stringFields(schema.getValueType(), seen, unclassified);
            default -> {
            }
        }
    }

    private static boolean holdsString(Schema schema) {
        return switch (schema.getType()) {
            case STRING -> true;
            case UNION -> schema.getTypes().stream().anyMatch(RedactionTest::holdsString);
            case ARRAY -> holdsString(schema.getElementType());
            case MAP -> holdsString(schema.getValueType());
            default -> false;
        };
    }
}
