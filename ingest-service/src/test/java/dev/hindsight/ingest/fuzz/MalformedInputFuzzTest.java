package dev.hindsight.ingest.fuzz;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hindsight.testing.HindsightTestResource;
import dev.hindsight.testing.TestTenants;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Throws thousands of malformed bodies at every ingest endpoint: truncated and corrupted JSON, wrong types, missing
 * and unknown fields, absurd numbers, deep nesting, invalid UTF-8. None may answer 5xx, and every refusal must be
 * problem+json. Seeded: a failure prints the seed and the body, so it can be replayed.
 */
@QuarkusTest
@QuarkusTestResource(value = HindsightTestResource.class, initArgs = @ResourceArg(name = "database", value = "false"))
class MalformedInputFuzzTest {

    private static final int BODIES_PER_ENDPOINT = 400;
    private static final ObjectMapper JSON = new ObjectMapper();

    /** A valid body per endpoint: mutations start from something the endpoint accepts. */
    private static final Map<String, String> VALID = Map.of(
            "/v1/sessions", """
                    {"kind": "trading", "started_at": "2025-10-02T10:00:00Z",
                     "trading": {"job_id": "j", "date": "2025-10-02", "model": "gpt-5"}, "labels": {"a": "b"}}""",
            "/v1/sessions/fuzz-1/messages", """
                    {"messages": [{"message_index": 1, "role": "assistant", "content": "c",
                     "timestamp": "2025-10-02T10:00:00Z", "tool_input": {"x": 1},
                     "thinking_steps": [{"step_order": 0, "step_type": "tool", "tool_name": "t",
                       "tool_arguments": {"q": [1, 2]}, "tool_result": "r"}],
                     "tools": [{"name": "n", "arguments": {}, "result": "r"}], "reasoning": "because"}]}""",
            "/v1/sessions/fuzz-1/positions", """
                    {"positions": [{"action_id": 1, "action_type": "buy", "symbol": "NVDA", "amount": 10,
                     "price": 189.6, "cash_after": 8104.0, "portfolio_value": 10000.0}]}""",
            "/v1/sessions/fuzz-1/activities", """
                    {"events": [{"event_id": "e1", "timestamp": "2025-10-29 T16:05:10Z", "event_type": "command_run",
                     "payload": {"command_text": "make", "exit_code": 1, "stderr": "boom"}}]}""",
            "/v1/sessions/fuzz-1/complete", """
                    {"outcome": "failure", "final_code_diff": "--- a", "total_messages": 3, "judge": true}""",
            "/v1/traces", """
                    {"trace_id": "t1", "developer_id": "d", "task_id": "k", "start_timestamp": "2025-10-29 T16:00:00Z",
                     "Final_code_diff": "x", "events": [{"event_id": "e1", "timestamp": "2025-10-29T16:05:10Z",
                     "event_type": "thought_log", "payload": {"thought_text": "t"}}]}""",
            "/v1/decision-sets", """
                    {"event_type": "DECISION_SET_CREATED", "level": "info", "payload": {"message_id": "m",
                     "session_id": "s", "question_text": "q", "active_version": "v1", "shadow_versions": ["v2"],
                     "active_decision": {"info_need_type": "A", "decision_action": "B", "confidence_level": "low"},
                     "shadow_decisions": [{"info_need_type": "A", "decision_action": "C"}],
                     "context_snapshot": {"rag_chunks": 3}}}""",
            "/v1/behavior-signals", """
                    {"message_id": "m", "session_id": "s", "signal_type": "reask_same_question",
                     "signal_data": {"previous_message_id": "p", "time_gap_seconds": 60, "question_hash_match": true},
                     "timestamp": "2025-01-31T10:30:05Z"}""",
            "/v1/events:batch", """
                    {"items": [{"type": "session", "body": {"kind": "chat"}},
                     {"type": "messages", "session_id": "fuzz-2", "body": {"messages": [
                       {"message_index": 0, "role": "user", "content": "hi"}]}},
                     {"type": "behavior_signal", "body": {"message_id": "m", "session_id": "s",
                       "signal_type": "explicit_feedback", "signal_data": {"rating": "up"}}}]}""");

    @Test
    void noMalformedBodyYieldsAServerError() throws Exception {
        long seed = Long.getLong("fuzz.seed", System.nanoTime());
        Random random = new Random(seed);
        int requests = 0;
        for (Map.Entry<String, String> endpoint : VALID.entrySet()) {
            JsonNode valid = JSON.readTree(endpoint.getValue());
            for (int i = 0; i < BODIES_PER_ENDPOINT; i++) {
                byte[] body = malformed(valid, random);
                Response response = given().urlEncodingEnabled(false)
                        .header("Authorization", TestTenants.TENANT_A.bearer())
                        .contentType("application/json").body(body)
                        .when().post(endpoint.getKey())
                        .then().extract().response();
                requests++;
                String context = "seed " + seed + ", " + endpoint.getKey() + ", body: "
                        + new String(body, StandardCharsets.UTF_8);
                assertThat(response.statusCode()).as(context).isLessThan(500);
                if (response.statusCode() >= 400) {
                    assertThat(response.contentType()).as(context).startsWith("application/problem+json");
                }
            }
        }
        assertThat(requests).isEqualTo(VALID.size() * BODIES_PER_ENDPOINT);
    }

    /** One malformed variant of {@code valid}. */
    static byte[] malformed(JsonNode valid, Random random) {
        String text = valid.toString();
        return switch (random.nextInt(9)) {
            case 0 -> text.substring(0, random.nextInt(text.length())).getBytes(StandardCharsets.UTF_8);
            case 1 -> {
                String noise = "{}[]\",:\\0x\u0000é";
                StringBuilder corrupted = new StringBuilder(text);
                for (int n = 1 + random.nextInt(4); n > 0; n--) {
                    corrupted.setCharAt(random.nextInt(corrupted.length()), noise.charAt(random.nextInt(noise.length())));
                }
                yield corrupted.toString().getBytes(StandardCharsets.UTF_8);
            }
            case 2 -> {
                byte[] bytes = new byte[random.nextInt(200)];
                random.nextBytes(bytes);
                yield bytes;
            }
            case 3 -> ("[".repeat(2000 + random.nextInt(3000)) + "]".repeat(10)).getBytes(StandardCharsets.UTF_8);
            case 4 -> new byte[0];
            default -> {
                JsonNode tree = valid.deepCopy();
                for (int n = 1 + random.nextInt(3); n > 0; n--) {
                    tree = mutate(tree, random);
                }
                yield tree.toString().getBytes(StandardCharsets.UTF_8);
            }
        };
    }

    /** Replaces, removes or adds one value somewhere in the tree. */
    private static JsonNode mutate(JsonNode root, Random random) {
        List<JsonNode> containers = new ArrayList<>();
        collect(root, containers);
        if (containers.isEmpty()) {
            return weird(random);
        }
        JsonNode target = containers.get(random.nextInt(containers.size()));
        if (target instanceof ObjectNode object) {
            List<String> names = new ArrayList<>();
            for (Iterator<String> it = object.fieldNames(); it.hasNext(); ) {
                names.add(it.next());
            }
            switch (random.nextInt(3)) {
                case 0 -> object.put("unexpected_" + random.nextInt(100), random.nextInt());
                case 1 -> {
                    if (!names.isEmpty()) {
                        object.remove(names.get(random.nextInt(names.size())));
                    }
                }
                default -> {
                    if (!names.isEmpty()) {
                        object.set(names.get(random.nextInt(names.size())), weird(random));
                    }
                }
            }
        } else if (target instanceof ArrayNode array) {
            if (random.nextBoolean() || array.isEmpty()) {
                array.add(weird(random));
            } else {
                array.set(random.nextInt(array.size()), weird(random));
            }
        }
        return random.nextInt(20) == 0 ? weird(random) : root;
    }

    private static void collect(JsonNode node, List<JsonNode> containers) {
        if (node.isContainerNode()) {
            containers.add(node);
            node.forEach(child -> collect(child, containers));
        }
    }

    private static JsonNode weird(Random random) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        return switch (random.nextInt(14)) {
            case 0 -> f.nullNode();
            case 1 -> f.booleanNode(random.nextBoolean());
            case 2 -> f.numberNode(random.nextLong());
            case 3 -> f.numberNode(new java.math.BigInteger("9".repeat(60)));
            case 4 -> f.numberNode(-random.nextDouble() * 1e300);
            case 5 -> f.textNode("");
            case 6 -> f.textNode("x".repeat(random.nextInt(3) == 0 ? 70_000 : 20));
            case 7 -> f.textNode("2025-13-45T99:99:99Z");
            case 8 -> f.textNode("\u0000\ud83d\ude00'\"<script>");
            case 9 -> f.arrayNode().add(1).add("two").addNull();
            case 10 -> f.objectNode().put("nested", f.objectNode().toString());
            case 11 -> f.numberNode(-1);
            case 12 -> f.textNode("NaN");
            default -> f.numberNode(1.5);
        };
    }
}
