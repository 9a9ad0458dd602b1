package dev.hindsight.ingest.session;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hindsight.events.reasoning.MessageRecorded;
import dev.hindsight.events.reasoning.ReasoningEvent;
import dev.hindsight.ingest.request.Sender;
import dev.hindsight.ingest.session.AppendMessagesRequest.LegacyTool;
import dev.hindsight.ingest.session.AppendMessagesRequest.Message;
import dev.hindsight.ingest.session.AppendMessagesRequest.Role;
import dev.hindsight.ingest.session.AppendMessagesRequest.StepType;
import dev.hindsight.ingest.session.AppendMessagesRequest.ThinkingStep;
import dev.hindsight.platform.kafka.Publisher.Outgoing;
import dev.hindsight.platform.redact.Redaction;
import dev.hindsight.platform.redact.Redactor;
import dev.hindsight.platform.redact.SecretScrubber;
import dev.hindsight.platform.tenant.TenantId;
import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A message's secrets are redacted before its event is built and before its id is derived, as its tenant's policy
 * says: every text field, tool arguments as decoded JSON, and a message without secrets keeps the id it always had.
 */
class SessionRedactionTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2025-10-02T12:00:00Z"), ZoneOffset.UTC);
    private static final TenantId ACME = TenantId.of("acme");
    private static final Sender CALLER = new Sender(ACME, "ci", "sdk/1", null);
    // Assembled at run time: the repository holds no string a secret scanner would take for a leaked key.
    private static final String AWS_KEY = "AK" + "IA" + "Q7RT2KX9LMN4PZ8V";
    private static final String PASSWORD = "hunter" + "22";

    private final SessionEventMapper redacting = new SessionEventMapper(CLOCK, Redactor.redactingEveryTenant());
    private final SessionEventMapper keeping = new SessionEventMapper(CLOCK, Redactor.keeping(ACME));

    @Test
    void aMessageWithoutSecretsKeepsTheIdItHadBeforeRedactionExisted() throws Exception {
        // The id the mapper derived for this message before this change (computed with that build): re-sending a
        // message across the upgrade is still the same event.
        assertThat(one(redacting, ordersMessage()).eventId()).isEqualTo("2d1dd365-2f47-35d4-bf52-8717a801784e");
    }

    @Test
    void everyTextFieldOfAMessageIsRedactedAndTheSchemaWalkerFindsNothingLeft() throws Exception {
        MessageRecorded payload = (MessageRecorded) one(redacting, secretMessage(PASSWORD)).value().getPayload();

        String text = payload.toString();
        assertThat(text).doesNotContain(AWS_KEY).doesNotContain(PASSWORD).contains("marker-content")
                .contains("marker-input").contains("marker-step").contains("marker-args").contains("marker-result")
                .contains("marker-error").contains("marker-legacy").contains("marker-tool");
        assertThat(payload.getThinkingSteps().get(1).getToolArguments()).isEqualTo(
                "{\"url\":\"https://example.com\",\"headers\":{\"Authorization\":\"Bearer [REDACTED:bearer-token]\"},"
                        + "\"note\":\"marker-args\"}");
        String before = payload.toString();
        new Redaction(new SecretScrubber()).apply(payload);
        assertThat(payload.toString()).as("what the schema marks as text was all redacted already").isEqualTo(before);
    }

    @Test
    void aReSendIsTheSameEventAndSoIsOneThatDiffersOnlyInItsSecret() throws Exception {
        String first = one(redacting, secretMessage(PASSWORD)).eventId();

        assertThat(one(redacting, secretMessage(PASSWORD)).eventId()).isEqualTo(first);
        // The id is derived from what is published: two messages that read the same once redacted are one event.
        assertThat(one(redacting, secretMessage("other" + "pass99")).eventId()).isEqualTo(first);
    }

    @Test
    void underKeepTheSecretsArePublishedAsSent() throws Exception {
        MessageRecorded payload = (MessageRecorded) one(keeping, secretMessage(PASSWORD)).value().getPayload();

        assertThat(payload.getContent()).contains(AWS_KEY);
        assertThat(payload.getToolInput()).contains(PASSWORD);
        assertThat(one(keeping, secretMessage(PASSWORD)).eventId())
                .isNotEqualTo(one(redacting, secretMessage(PASSWORD)).eventId());
    }

    private static Outgoing<ReasoningEvent> one(SessionEventMapper mapper, Message message) {
        return mapper.messagesRecorded("session-7", new AppendMessagesRequest(List.of(message)), CALLER).get(0);
    }

    private static Message ordersMessage() throws Exception {
        List<ThinkingStep> steps = List.of(
                new ThinkingStep(1, StepType.TOOL, null, "search", JSON.readTree("{\"q\":\"orders\",\"limit\":5}"),
                        "3 results", null),
                new ThinkingStep(0, StepType.REASONING, "Look up the orders first.", null, null, null, null));
        return new Message(null, 2, Role.ASSISTANT, "Here are your orders.", null, null,
                OffsetDateTime.parse("2025-10-02T11:59:00Z"), steps, null, null);
    }

    private static Message secretMessage(String password) throws Exception {
        JsonNode arguments = JSON.readTree("{\"url\": \"https://example.com\", \"headers\": {\"Authorization\": "
                + "\"Bearer " + "tok" + "9f8e7d6c5b4a3f2e1d0c9b8a\"}, \"note\": \"marker-args\"}");
        List<ThinkingStep> steps = List.of(
                new ThinkingStep(0, StepType.REASONING, "marker-step the key is " + AWS_KEY, null, null, null, null),
                new ThinkingStep(1, StepType.TOOL, null, "fetch", arguments, "marker-result " + AWS_KEY,
                        "marker-error password=" + password));
        List<LegacyTool> tools = List.of(new LegacyTool("shell", JSON.readTree("[\"marker-tool\", \"" + AWS_KEY + "\"]"),
                null, null));
        return new Message(null, 4, Role.ASSISTANT, "marker-content " + AWS_KEY, "db",
                JSON.readTree("{\"dsn\": \"postgres://app:" + password + "@db:5432/x\", \"marker\": \"marker-input\"}"),
                OffsetDateTime.parse("2025-10-02T11:59:00Z"), steps, "marker-legacy " + AWS_KEY, tools);
    }
}
