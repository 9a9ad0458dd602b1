package dev.hindsight.ingest.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.hindsight.events.reasoning.MessageRecorded;
import dev.hindsight.events.reasoning.ThinkingStep;
import dev.hindsight.ingest.audit.AuditEvents;
import dev.hindsight.ingest.request.RequestReader;
import dev.hindsight.ingest.request.Sender;
import dev.hindsight.ingest.session.SessionEventMapper;
import dev.hindsight.platform.problem.Problem.FieldError;
import dev.hindsight.platform.problem.ProblemException;
import dev.hindsight.platform.redact.Redactor;
import dev.hindsight.platform.tenant.TenantId;
import jakarta.validation.Validation;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.hibernate.validator.HibernateValidator;
import org.hibernate.validator.messageinterpolation.ParameterMessageInterpolator;
import org.junit.jupiter.api.Test;

/** Reading a batch into items, without the HTTP layer or Kafka (BatchResourceTest has those). */
class BatchItemsTest {

    private static final ObjectMapper JSON = JsonMapper.builder().findAndAddModules()
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS).build();
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-25T08:00:00Z"), ZoneOffset.UTC);
    private static final RequestReader READER = new RequestReader(JSON, Validation.byProvider(HibernateValidator.class)
            .configure().messageInterpolator(new ParameterMessageInterpolator()).buildValidatorFactory().getValidator());
    private static final BatchItems ITEMS = new BatchItems(JSON, READER, new AuditEvents(READER, CLOCK,
            Redactor.redactingEveryTenant(), dev.hindsight.testing.TestCrypto.kms()), new SessionEventMapper(CLOCK, Redactor.redactingEveryTenant()));
    private static final Sender SENDER = new Sender(TenantId.of("tenant-a"), "key-a", "agent/1.0", null);

    /** One valid item of every type, each written with its keys in the order producers usually write them. */
    private static final List<String> VALID = List.of(
            """
            {"type": "session", "body": {"session_id": "s-1", "kind": "chat", "chat": {"agent": "a", "model": "m"}}}""",
            """
            {"type": "session", "body": {"session_id": "t-1", "kind": "trading",
             "trading": {"job_id": "j", "date": "2025-10-02", "model": "gpt-5"}, "started_at": "2025-10-02T09:00:00Z"}}""",
            """
            {"type": "messages", "session_id": "s-1", "body": {"messages": [
              {"message_index": 0, "role": "user", "content": "Why is \\"x\\" \\u00e9 slow?", "timestamp": "2025-10-02T09:00:01Z"},
              {"message_index": 1, "role": "assistant", "content": "Looking",
               "thinking_steps": [{"step_order": 2, "step_type": "tool", "tool_name": "grep",
                                   "tool_arguments": {"pattern": "x", "n": 1.5, "deep": [1, {"a": null}]},
                                   "tool_result": "3 hits"},
                                  {"step_order": 1, "step_type": "reasoning", "content": "search first"}]},
              {"message_index": 2, "role": "assistant", "content": "Done", "reasoning": "legacy text",
               "tools": [{"name": "read", "arguments": {"path": "a.txt"}, "result": "ok"}]},
              {"message_index": 3, "role": "tool", "content": "out", "tool_name": "read", "tool_input": {"path": "a"}}]}}""",
            """
            {"type": "positions", "session_id": "t-1", "body": {"positions": [{"action_id": 1, "action_type": "buy",
             "symbol": "NVDA", "amount": 10, "price": 120.5, "cash_after": 8795.0, "portfolio_value": 10000.25}]}}""",
            """
            {"type": "activities", "session_id": "d-1", "body": {"events": [{"event_id": "e-1",
             "event_type": "thought_log", "timestamp": "2025-10-02T09:00:00Z", "payload": {"thought_text": "look at it"}},
             {"event_id": "e-2", "event_type": "command_run", "timestamp_iso": "2025-10-02T09:00:02Z",
              "payload": {"command_text": "pytest", "exit_code": 1, "stdout": "1 failed"}}]}}""",
            """
            {"type": "complete", "session_id": "s-1", "body": {"outcome": "success", "summary_hint": "fixed"}}""",
            """
            {"type": "decision_set", "body": {"decision_set_id": "ds-1", "message_id": "m-1", "session_id": "s-1",
             "question_text": "q", "active_version": "v1", "shadow_versions": ["v2"],
             "active_decision": {"info_need_type": "A", "decision_action": "B"},
             "shadow_decisions": [{"info_need_type": "A", "decision_action": "C"}],
             "timestamp": "2025-01-31T10:30:00.000Z"}}""",
            """
            {"type": "behavior_signal", "body": {"event_type": "USER_BEHAVIOR_SIGNAL", "payload": {
              "message_id": "m-1", "session_id": "s-1", "signal_type": "user_followup_override",
              "signal_data": {"user_action": "/comm search", "delay_seconds": 5},
              "timestamp": "2025-01-31T10:30:05.000Z"}}}""");

    @Test
    void aValidItemOfEveryTypeBecomesItsEvents() throws Exception {
        BatchItems.Read read = ITEMS.read(batch(VALID), SENDER, null);

        assertThat(read.parsed()).hasSize(VALID.size()).doesNotContainNull();
        assertThat(read.rejections()).hasSize(VALID.size()).allMatch(List::isEmpty);
        assertThat(read.parsed().get(0).sessionId()).isEqualTo("s-1");
        assertThat(read.parsed().get(2).reasoning()).extracting(e -> e.key()).containsOnly("s-1");
        assertThat(read.parsed().get(2).reasoning()).hasSize(4);
        MessageRecorded withSteps = (MessageRecorded) read.parsed().get(2).reasoning().get(1).value().getPayload();
        assertThat(withSteps.getThinkingSteps()).extracting(ThinkingStep::getStepOrder).containsExactly(1, 2);
        assertThat(read.parsed().get(4).reasoning()).hasSize(2);
        assertThat(read.parsed().get(6).decisions()).singleElement().extracting(e -> e.key()).isEqualTo("m-1");
        assertThat(read.parsed().get(7).signals()).hasSize(1);
        assertThat(read.parsed().get(7).messageId()).isEqualTo("m-1");
    }

    @Test
    void oneIdempotencyKeyGivesEachItemItsOwnIds() throws Exception {
        byte[] twice = batch(List.of(VALID.get(5), VALID.get(5)));

        BatchItems.Read keyed = ITEMS.read(twice, SENDER, "retry-7");
        BatchItems.Read again = ITEMS.read(twice, SENDER, "retry-7");
        BatchItems.Read unkeyed = ITEMS.read(twice, SENDER, null);

        String first = keyed.parsed().get(0).reasoning().get(0).eventId();
        assertThat(keyed.parsed().get(1).reasoning().get(0).eventId()).isNotEqualTo(first);
        assertThat(again.parsed().get(0).reasoning().get(0).eventId()).isEqualTo(first);
        // Without a key an identical fact is the same event, wherever it stands in the batch.
        assertThat(unkeyed.parsed().get(1).reasoning().get(0).eventId())
                .isEqualTo(unkeyed.parsed().get(0).reasoning().get(0).eventId());
    }

    @Test
    void anItemWithAnyProblemIsRejectedWholeAndAlone() throws Exception {
        String messages = VALID.get(2);
        Map<String, String> judged = new LinkedHashMap<>();
        judged.put(messages.replace("\"role\": \"tool\"", "\"role\": \"robot\""), "items[1].body.messages[3].role");
        judged.put(messages.replace("\"message_index\": 3", "\"message_index\": 1"),
                "items[1].body.messages[3].message_index");
        judged.put(messages.replace("\"content\": \"out\"", "\"content\": \"out\", \"colour\": 1"),
                "items[1].body.messages[3].colour");
        judged.put(messages.replace("\"session_id\": \"s-1\"", "\"session_id\": \"-bad\""), "items[1].session_id");
        judged.put(messages.replace("\"session_id\": \"s-1\"", "\"session_id\": 7"), "items[1].session_id");
        judged.put(messages.replace("\"type\": \"messages\"", "\"type\": \"teleport\""), "items[1].type");
        // An unknown field beside type and body rejects the item too; it was reported and yet published before.
        judged.put(messages.replace("{\"type\"", "{\"extra\": 1, \"type\""), "items[1].extra");
        judged.put("{\"type\": \"complete\", \"body\": {\"outcome\": \"success\"}}", "items[1].session_id");
        judged.put("{\"type\": \"behavior_signal\", \"body\": null}", "items[1].body");
        judged.put("[1, 2]", "items[1]");
        for (Map.Entry<String, String> item : judged.entrySet()) {
            BatchItems.Read read = ITEMS.read(batch(List.of(VALID.get(0), item.getKey())), SENDER, null);

            assertThat(read.parsed().get(1)).as(item.getKey()).isNull();
            assertThat(read.rejections().get(1)).as(item.getKey()).extracting(FieldError::field)
                    .contains(item.getValue());
            assertThat(read.parsed().get(0)).as(item.getKey()).isNotNull();
            assertThat(read.rejections().get(0)).as(item.getKey()).isEmpty();
        }
    }

    @Test
    void anAuditItemWithAnUnknownFieldHasItsBodyCheckedToo() throws Exception {
        String signal = "{\"type\": \"behavior_signal\", \"extra\": 1, \"body\": {\"message_id\": \"m\", "
                + "\"session_id\": \"s\", \"signal_type\": \"teleported\"}}";

        BatchItems.Read read = ITEMS.read(batch(List.of(signal)), SENDER, null);

        assertThat(read.parsed().get(0)).isNull();
        assertThat(read.rejections().get(0)).extracting(FieldError::field)
                .contains("items[0].extra", "items[0].body.signal_type");
    }

    @Test
    void ofDuplicateKeysTheLastCounts() throws Exception {
        byte[] batch = batch(List.of(VALID.get(2).replace("\"content\": \"out\"",
                "\"content\": \"out\", \"content\": \"in\"")));

        BatchItems.Read read = ITEMS.read(batch, SENDER, null);

        assertThat(((MessageRecorded) read.parsed().get(0).reasoning().get(3).value().getPayload()).getContent())
                .isEqualTo("in");
    }

    @Test
    void anItemReadsTheSameWhateverTheOrderOfItsFields() throws Exception {
        // Producers usually write the type first, and the body is bound as it is read; written last, the type is only
        // known after the body, which is kept as tokens and bound then. Both give the same events.
        List<String> typeLast = VALID.stream().map(item -> {
            int body = item.indexOf("\"body\"");
            String head = item.substring(1, body).trim();
            return "{" + item.substring(body, item.length() - 1) + ", " + head.substring(0, head.length() - 1) + "}";
        }).toList();
        assertThat(typeLast.get(2)).startsWith("{\"body\"").endsWith("\"type\": \"messages\", \"session_id\": \"s-1\"}");

        BatchItems.Read first = ITEMS.read(batch(VALID), SENDER, null);
        BatchItems.Read last = ITEMS.read(batch(typeLast), SENDER, null);

        assertThat(last.rejections()).allMatch(List::isEmpty);
        for (int i = 0; i < VALID.size(); i++) {
            assertThat(last.parsed().get(i)).as(typeLast.get(i)).usingRecursiveComparison()
                    .isEqualTo(first.parsed().get(i));
        }
    }

    @Test
    void aBodyThatFailsToBindLeavesTheRestOfTheBatchReadable() throws Exception {
        // Binding stops at the first wrong value, deep inside the body; the reader must find the body's end and go
        // on with the item's other fields and the next items.
        String wrongDeep = VALID.get(2).replace("\"step_order\": 2", "\"step_order\": {\"a\": [1, {\"b\": 2}]}")
                .replace("{\"type\": \"messages\", \"session_id\": \"s-1\", \"body\"", "{\"type\": \"messages\", \"body\"")
                .replaceFirst("}$", ", \"session_id\": \"s-1\"}");
        String overflow = VALID.get(5).replace("{\"outcome\"", "{\"budget\": 1, \"outcome\"");
        String hugeIndex = VALID.get(2).replace("\"message_index\": 3", "\"message_index\": 99999999999999999999");

        BatchItems.Read read = ITEMS.read(batch(List.of(wrongDeep, VALID.get(0), overflow, hugeIndex, VALID.get(5))),
                SENDER, null);

        assertThat(read.parsed()).hasSize(5);
        assertThat(read.rejections().get(0)).extracting(FieldError::field)
                .containsExactly("items[0].body.messages[1].thinking_steps[0].step_order");
        assertThat(read.rejections().get(2)).extracting(FieldError::field).containsExactly("items[2].body.budget");
        assertThat(read.rejections().get(3)).extracting(FieldError::field)
                .containsExactly("items[3].body.messages[3].message_index");
        assertThat(read.parsed().get(0)).isNull();
        assertThat(read.parsed().get(2)).isNull();
        assertThat(read.parsed().get(3)).isNull();
        assertThat(read.parsed().get(1)).isNotNull();
        assertThat(read.parsed().get(4)).isNotNull();
        assertThat(read.rejections().get(4)).isEmpty();
    }

    @Test
    void malformedJsonInsideABodyRefusesTheWholeBatch() {
        // Jackson reports a syntax error met while binding as a binding error of the field it was in; it is still the
        // whole body that cannot be read, as when it is met between items, and the answer names the syntax error
        // itself (not whatever reading on past it would stumble over next).
        Map<String, String> malformed = new LinkedHashMap<>();
        malformed.put(VALID.get(2).replace("\"role\": \"tool\"", "\"role\": tool"), "Unrecognized token 'tool'");
        malformed.put(VALID.get(2).replace("\"message_index\": 3", "\"message_index\": 03"), "Leading zeroes");
        malformed.put(VALID.get(2).replace("\"n\": 1.5", "\"n\": 1.5e"), "Exponent indicator not followed by a digit");
        malformed.put(VALID.get(5).replace("\"success\"", "\"success"), "was expecting comma");
        malformed.put(VALID.get(6).replace("\"v2\"]", "\"v2\"}"), "Unexpected close marker '}'");
        for (Map.Entry<String, String> bad : malformed.entrySet()) {
            assertThatThrownBy(() -> ITEMS.read(batch(List.of(VALID.get(0), bad.getKey())), SENDER, null))
                    .as(bad.getKey())
                    .isInstanceOf(JsonProcessingException.class)
                    .isNotInstanceOf(com.fasterxml.jackson.databind.JsonMappingException.class)
                    .hasMessageContaining(bad.getValue());
        }
    }

    @Test
    void aFieldOfAnItemGivenTwiceRejectsIt() throws Exception {
        // Which of two types or bodies was meant cannot be known; the body may already be bound as the first type.
        for (String twice : List.of(VALID.get(5).replace("{\"type\": \"complete\"", "{\"type\": \"complete\", \"type\": \"session\""),
                VALID.get(5).replaceFirst("}$", ", \"type\": \"decision_set\"}"),
                VALID.get(6).replaceFirst("}$", ", \"type\": \"complete\"}"),
                VALID.get(5).replace("\"session_id\": \"s-1\"", "\"session_id\": \"s-1\", \"session_id\": \"s-2\""),
                VALID.get(5).replaceFirst("}$", ", \"body\": {\"outcome\": \"failure\"}}"))) {
            BatchItems.Read read = ITEMS.read(batch(List.of(twice)), SENDER, null);

            assertThat(read.parsed().get(0)).as(twice).isNull();
            assertThat(read.rejections().get(0)).as(twice).extracting(FieldError::message).contains("given more than once");
        }
    }

    @Test
    void whatIsNotABatchIsRefusedWhole() {
        String tooMany = IntStream.rangeClosed(0, BatchItems.MAX_ITEMS).mapToObj(i -> VALID.get(5))
                .collect(Collectors.joining(",", "{\"items\": [", "]}"));
        for (String body : List.of("", "{}", "{\"items\": []}", "{\"items\": {}}", "[]", tooMany)) {
            assertThatThrownBy(() -> ITEMS.read(body.getBytes(StandardCharsets.UTF_8), SENDER, null)).as(body)
                    .isInstanceOf(ProblemException.class);
        }
        assertThatThrownBy(() -> ITEMS.read("{\"items\": [".getBytes(StandardCharsets.UTF_8), SENDER, null))
                .isInstanceOf(JsonProcessingException.class);
    }

    @Test
    void everyItemOfAMutatedBatchIsEitherAcceptedCleanOrRejectedWithReasons() throws Exception {
        // Thousands of batches a byte away from valid ones. No item may be published while a problem is reported
        // for it, nor be dropped without one.
        Random random = new Random(20261125);
        String alphabet = "{}[]\",:0123456789.-etrunfalsx \\";
        int accepted = 0;
        int rejected = 0;
        for (int round = 0; round < 5000; round++) {
            List<String> items = new ArrayList<>();
            for (int i = 0, n = 1 + random.nextInt(3); i < n; i++) {
                items.add(VALID.get(random.nextInt(VALID.size())));
            }
            StringBuilder body = new StringBuilder(new String(batch(items), StandardCharsets.UTF_8));
            int at = random.nextInt(body.length());
            switch (random.nextInt(3)) {
                case 0 -> body.deleteCharAt(at);
                case 1 -> body.insert(at, alphabet.charAt(random.nextInt(alphabet.length())));
                default -> body.setCharAt(at, alphabet.charAt(random.nextInt(alphabet.length())));
            }
            BatchItems.Read read;
            try {
                read = ITEMS.read(body.toString().getBytes(StandardCharsets.UTF_8), SENDER, null);
            } catch (ProblemException | JsonProcessingException notABatch) {
                continue;
            }
            assertThat(read.parsed()).hasSameSizeAs(read.rejections());
            for (int i = 0; i < read.parsed().size(); i++) {
                boolean clean = read.rejections().get(i).isEmpty();
                assertThat(read.parsed().get(i) != null).as("item %d of %s", i, body).isEqualTo(clean);
                if (clean) {
                    accepted++;
                } else {
                    rejected++;
                }
            }
        }
        assertThat(accepted).isGreaterThan(500);
        assertThat(rejected).isGreaterThan(500);
    }

    private static byte[] batch(List<String> items) {
        return ("{\"items\": [" + String.join(",", items) + "]}").getBytes(StandardCharsets.UTF_8);
    }
}
