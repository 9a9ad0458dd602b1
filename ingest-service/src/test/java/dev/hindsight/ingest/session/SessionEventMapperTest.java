package dev.hindsight.ingest.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.hindsight.events.reasoning.MessageRecorded;
import dev.hindsight.events.reasoning.ReasoningEvent;
import dev.hindsight.ingest.request.Sender;
import dev.hindsight.ingest.session.AppendMessagesRequest.Message;
import dev.hindsight.ingest.session.AppendMessagesRequest.Role;
import dev.hindsight.ingest.session.AppendMessagesRequest.StepType;
import dev.hindsight.ingest.session.AppendMessagesRequest.ThinkingStep;
import dev.hindsight.platform.kafka.Publisher.Outgoing;
import dev.hindsight.platform.problem.Problem.FieldError;
import dev.hindsight.platform.problem.ProblemException;
import dev.hindsight.platform.redact.Redactor;
import dev.hindsight.platform.tenant.TenantId;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Pure mapping rules, no container: ids, ordering, and the cross-field checks. */
class SessionEventMapperTest {

    private static final Instant NOW = Instant.parse("2025-10-02T12:00:00Z");
    private final SessionEventMapper mapper = new SessionEventMapper(Clock.fixed(NOW, ZoneOffset.UTC),
            Redactor.redactingEveryTenant());
    private final Sender caller = new Sender(TenantId.of("acme"), "ci", "sdk/1", null);

    @Test
    void tradingSessionIdIsDerivedFromTheModelDayAndIsStable() {
        StartSessionRequest request = trading("job-1", "gpt-5");
        Outgoing<ReasoningEvent> first = mapper.sessionStarted(request, caller);
        Outgoing<ReasoningEvent> again = mapper.sessionStarted(request, caller);
        Outgoing<ReasoningEvent> otherModel = mapper.sessionStarted(trading("job-1", "claude"), caller);

        assertThat(first.key()).isEqualTo(again.key()).isNotEqualTo(otherModel.key());
        assertThat(first.eventId()).isEqualTo(again.eventId());
        assertThat(first.value().getHeader().getTenantId()).isEqualTo("acme");
        assertThat(first.value().getHeader().getRecordedAt()).isEqualTo(NOW);
    }

    @Test
    void producerEventIdAndIdempotencyKeyWinOverDerivedIds() {
        UUID chosen = UUID.randomUUID();
        StartSessionRequest withId = new StartSessionRequest("s-1", chosen, StartSessionRequest.Kind.CHAT, null, null,
                null, null, null, null);
        assertThat(mapper.sessionStarted(withId, caller).eventId()).isEqualTo(chosen.toString());

        StartSessionRequest withoutId = new StartSessionRequest("s-1", null, StartSessionRequest.Kind.CHAT, null, null,
                null, null, null, null);
        var keyed = new Sender(TenantId.of("acme"), "ci", null, "retry-7");
        var otherTenant = new Sender(TenantId.of("globex"), "ci", null, "retry-7");
        assertThat(mapper.sessionStarted(withoutId, keyed).eventId())
                .isEqualTo(mapper.sessionStarted(withoutId, keyed).eventId())
                .isNotEqualTo(mapper.sessionStarted(withoutId, otherTenant).eventId())
                .isNotEqualTo(mapper.sessionStarted(withoutId, caller).eventId());
    }

    @Test
    void identicalMessageResentIsTheSameEventAndADifferentOneIsNot() {
        Message original = message(0, Role.USER, "hello", null);
        Message rewritten = message(0, Role.USER, "hello!", null);
        String a = mapper.messagesRecorded("s", new AppendMessagesRequest(List.of(original)), caller).get(0).eventId();
        String b = mapper.messagesRecorded("s", new AppendMessagesRequest(List.of(original)), caller).get(0).eventId();
        String c = mapper.messagesRecorded("s", new AppendMessagesRequest(List.of(rewritten)), caller).get(0).eventId();
        assertThat(a).isEqualTo(b).isNotEqualTo(c);
    }

    @Test
    void stepsArePublishedInStepOrderWhateverTheirOrderInTheRequest() {
        Message message = message(1, Role.ASSISTANT, "answer", List.of(
                new ThinkingStep(2, StepType.REASONING, "third", null, null, null, null),
                new ThinkingStep(0, StepType.REASONING, "first", null, null, null, null),
                new ThinkingStep(1, StepType.TOOL, null, "search",
                        JsonNodeFactory.instance.objectNode().put("q", "x"), "ok", null)));
        MessageRecorded event = (MessageRecorded) mapper.messagesRecorded("s",
                new AppendMessagesRequest(List.of(message)), caller).get(0).value().getPayload();
        assertThat(event.getThinkingSteps()).extracting(s -> s.getStepOrder()).containsExactly(0, 1, 2);
        assertThat(event.getThinkingSteps().get(1).getToolArguments()).isEqualTo("{\"q\":\"x\"}");
        assertThat(event.getTimestamp()).isEqualTo(NOW);
    }

    @Test
    void everyCrossFieldViolationIsReportedAtOnce() {
        Message duplicateA = message(4, Role.USER, "a", List.of(
                new ThinkingStep(0, StepType.TOOL, null, null, null, null, null),
                new ThinkingStep(0, StepType.REASONING, " ", null, null, null, null)));
        Message duplicateB = message(4, Role.ASSISTANT, "b", null);
        assertThatThrownBy(() -> mapper.messagesRecorded("s", new AppendMessagesRequest(List.of(duplicateA,
                duplicateB)), caller))
                .isInstanceOfSatisfying(ProblemException.class, e -> assertThat(e.problem().errors())
                        .extracting(FieldError::field)
                        .containsExactlyInAnyOrder("messages[0].thinking_steps",
                                "messages[0].thinking_steps[0].tool_name",
                                "messages[0].thinking_steps[1].step_order",
                                "messages[0].thinking_steps[1].content",
                                "messages[1].message_index"));
    }

    private static StartSessionRequest trading(String job, String model) {
        return new StartSessionRequest(null, null, StartSessionRequest.Kind.TRADING, null,
                new StartSessionRequest.Trading(job, LocalDate.of(2025, 10, 2), model), null, null, null, null);
    }

    private static Message message(int index, Role role, String content, List<ThinkingStep> steps) {
        return new Message(null, index, role, content, null, null, null, steps, null, null);
    }
}
