package dev.hindsight.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hindsight.system.Hostile.Planted;
import dev.hindsight.system.RunningSystem.Service;
import dev.hindsight.system.Wire.Answer;
import dev.hindsight.testing.TestTenants;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Acknowledged means visible, generatively, through the four packaged services on the real broker, registry and
 * PostgreSQL: random valid requests to every ingest endpoint (OTLP traces included) and memory-service's record, with
 * hostile text in
 * every string (control characters, characters from every plane, markup, blank and very long text) and hostile JSON
 * in every free-form field (nesting 900 deep, 300-digit integers, 1e308). A quarter of the requests carry one value
 * that cannot be stored (NUL, a lone surrogate, a number beyond a double) at a random leaf: each of those must be
 * refused with 400 naming that leaf (in a batch: that item alone; in an OTLP export: that span alone, counted in
 * partial_success). Every other request must be acknowledged and then
 * read back exactly from query-service (and memory-service), with evaluation-service's summaries and verdicts on it,
 * and no consumer may dead-letter anything. The seed is printed; {@code -Dhindsight.test.seed=...} replays a run.
 */
class AcknowledgedIsVisibleIT {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final double POISONED = 0.25;

    private static RunningSystem system;
    private static Map<TopicPartition, Long> deadLettersBefore;

    private final Wire wire = new Wire(TestTenants.TENANT_A.bearer());
    private final Map<String, Runnable> pending = new LinkedHashMap<>();
    private final List<String> log = new ArrayList<>();
    private long seed;
    private Hostile hostile;
    private String project;

    @BeforeAll
    static void startSystem() {
        system = RunningSystem.shared();
        deadLettersBefore = DeadLetters.count();
    }

    @Test
    void whatIngestAcknowledgesEveryReaderShowsAsSentAndNothingIsDeadLettered() {
        seed = Long.getLong("hindsight.test.seed", System.nanoTime());
        hostile = new Hostile(new Random(seed));
        project = "hostile-" + Long.toString(seed & 0xffffff, 36);
        System.out.println("AcknowledgedIsVisibleIT seed " + seed + " (replay: -Dhindsight.test.seed=" + seed + ")");

        bigMessages();
        for (int i = 0; i < 24; i++) {
            if (hostile.chance(0.15)) {
                otlp();
                continue;
            }
            switch (hostile.random().nextInt(9)) {
                case 0, 1 -> session("chat", hostile.chance(0.5));
                case 2 -> session("debug", hostile.chance(0.5));
                case 3 -> session("trading", false);
                case 4 -> trace();
                case 5, 6 -> decisionSet();
                case 7 -> memory();
                default -> jsonl();
            }
        }

        try {
            await("every acknowledged request visible").atMost(Duration.ofMinutes(3))
                    .pollInterval(Duration.ofMillis(500)).untilAsserted(this::verifyPending);
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            throw new AssertionError(context() + "\n" + e.getMessage() + "\n" + system.logs(30), e);
        }
        assertThat(DeadLetters.since(deadLettersBefore)).as(context() + "\ndead-lettered").isEmpty();
    }

    // --- what a producer sends --------------------------------------------------------------------------------------

    /** The largest message ingest takes, with a step as large: it must fit the event log and every read model. */
    private void bigMessages() {
        String sessionId = hostile.id("big");
        ObjectNode request = NODES.objectNode();
        ObjectNode message = request.putArray("messages").addObject().put("message_index", 0).put("role", "assistant")
                .put("content", hostile.exactly(1_048_576));
        message.putArray("thinking_steps").addObject().put("step_order", 0).put("step_type", "reasoning")
                .put("content", "\u00e9".repeat(1_000_000));
        Answer answer = wire.post(ingest("/v1/sessions/" + sessionId + "/messages"), request, false);
        expect("one message of 1 MiB with a step of 1 MB", answer, null, "");
        Map<Integer, ObjectNode> messages = Map.of(0, message);
        check("big session " + sessionId, () -> verifySession(sessionId, null, messages, List.of(), List.of(), null));
    }

    private void session(String kind, boolean batched) {
        String sessionId = hostile.id("hostile");
        ObjectNode start = NODES.objectNode().put("kind", kind);
        if (!kind.equals("trading")) {
            start.put("session_id", sessionId);
        }
        if (hostile.chance(0.5)) {
            start.put("started_at", "2025-10-02T10:00:00Z");
        }
        switch (kind) {
            case "chat" -> start.putObject("chat").put("agent", hostile.text(128, true))
                    .put("model", hostile.text(128, true)).put("title", hostile.text(512, true));
            case "debug" -> start.putObject("debug").put("developer_id", hostile.text(128, false))
                    .put("task_id", hostile.text(128, false)).put("task_description", hostile.text(65_536, true))
                    .put("repo_url", hostile.text(2048, true)).put("repo_commit_hash", hostile.text(128, true));
            default -> start.putObject("trading").put("job_id", hostile.text(128, false)).put("date", "2025-10-02")
                    .put("model", hostile.text(128, false));
        }
        ObjectNode labels = start.putObject("labels").put("project", project);
        for (int i = hostile.between(0, 3); i > 0; i--) {
            labels.put(hostile.text(64, true), hostile.text(512, true));
        }

        List<ObjectNode> messageRequests = new ArrayList<>();
        int index = 0;
        for (int r = hostile.between(1, 3); r > 0; r--) {
            ObjectNode request = NODES.objectNode();
            ArrayNode messages = request.putArray("messages");
            for (int m = hostile.between(1, 3); m > 0; m--) {
                messages.add(message(index++));
            }
            messageRequests.add(request);
        }
        List<ObjectNode> details = new ArrayList<>();
        if (kind.equals("debug")) {
            ObjectNode activities = NODES.objectNode();
            ArrayNode events = activities.putArray("events");
            for (int a = hostile.between(1, 4); a > 0; a--) {
                events.add(activity());
            }
            details.add(activities);
        } else if (kind.equals("trading")) {
            ObjectNode positions = NODES.objectNode();
            ArrayNode list = positions.putArray("positions");
            for (int p = hostile.between(1, 3); p > 0; p--) {
                list.add(position(p));
            }
            details.add(positions);
        }
        ObjectNode complete = NODES.objectNode().put("outcome", hostile.chance(0.5) ? "success" : "failure")
                .put("summary_hint", hostile.text(4096, true));
        if (kind.equals("debug")) {
            complete.put("final_code_diff", hostile.text(20_000, true));
        }

        // Trading sessions are named by their model-day: their id comes from the start's answer.
        Planted startPoison = maybePoison(start);
        if (kind.equals("trading") && startPoison != null) {
            expect("trading start", wire.post(ingest("/v1/sessions"), start, escape(startPoison)), startPoison, "");
            return;
        }
        if (batched) {
            sessionBatch(sessionId, start, startPoison, messageRequests, details, complete);
            return;
        }
        Answer started = wire.post(ingest("/v1/sessions"), start, escape(startPoison));
        boolean startAccepted = expect(kind + " session start " + started.body().path("session_id").asText(sessionId),
                started, startPoison, "");
        String id = kind.equals("trading") ? started.body().path("session_id").asText() : sessionId;
        Map<Integer, ObjectNode> accepted = new TreeMap<>();
        for (ObjectNode request : messageRequests) {
            Planted planted = maybePoison(request);
            Answer answer = wire.post(ingest("/v1/sessions/" + id + "/messages"), request, escape(planted));
            if (expect("messages " + id, answer, planted, "")) {
                request.path("messages").forEach(m -> accepted.put(m.path("message_index").asInt(), (ObjectNode) m));
            }
        }
        List<JsonNode> acceptedDetails = new ArrayList<>();
        for (ObjectNode request : details) {
            Planted planted = maybePoison(request);
            String path = kind.equals("debug") ? "/activities" : "/positions";
            if (expect(path, wire.post(ingest("/v1/sessions/" + id + path), request, escape(planted)), planted, "")) {
                request.path(kind.equals("debug") ? "events" : "positions").forEach(acceptedDetails::add);
            }
        }
        Planted completePoison = maybePoison(complete);
        boolean completed = expect("complete " + id, wire.post(ingest("/v1/sessions/" + id + "/complete"), complete,
                escape(completePoison)), completePoison, "");
        expectSession(id, startAccepted ? start : null, accepted, kind, acceptedDetails, completed ? complete : null);
    }

    private void sessionBatch(String sessionId, ObjectNode start, Planted startPoison, List<ObjectNode> messages,
            List<ObjectNode> details, ObjectNode complete) {
        ObjectNode batch = NODES.objectNode();
        ArrayNode items = batch.putArray("items");
        List<Planted> poisons = new ArrayList<>();
        items.addObject().put("type", "session").set("body", start);
        poisons.add(startPoison);
        for (ObjectNode request : messages) {
            items.addObject().put("type", "messages").put("session_id", sessionId).set("body", request);
            poisons.add(maybePoison(request));
        }
        for (ObjectNode request : details) {
            items.addObject().put("type", "activities").put("session_id", sessionId).set("body", request);
            poisons.add(maybePoison(request));
        }
        items.addObject().put("type", "complete").put("session_id", sessionId).set("body", complete);
        poisons.add(maybePoison(complete));
        boolean escape = poisons.stream().anyMatch(p -> p != null && p.kind().equals("a lone surrogate"));
        Answer answer = wire.post(ingest("/v1/events:batch"), batch, escape || hostile.chance(0.2));
        assertThat(answer.status()).as(context() + " batch " + answer).isEqualTo(200);
        List<String> statuses = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            statuses.add(items.get(i).path("type").asText() + " " + answer.body().path("results").path(i)
                    .path("status").asText() + (poisons.get(i) == null ? "" : " (poisoned at " + poisons.get(i).path()
                    + ")"));
        }
        log.add("batch " + sessionId + ": " + String.join(", ", statuses));
        Map<Integer, ObjectNode> accepted = new TreeMap<>();
        List<JsonNode> acceptedDetails = new ArrayList<>();
        boolean startAccepted = false;
        boolean completed = false;
        for (int i = 0; i < items.size(); i++) {
            JsonNode result = answer.body().path("results").get(i);
            Planted planted = poisons.get(i);
            String what = "batch item " + i + " (" + items.get(i).path("type").asText() + ")";
            if (planted == null) {
                assertThat(result.path("status").asText()).as(context() + " " + what + ": " + result)
                        .isEqualTo("accepted");
            } else {
                assertThat(result.path("status").asText()).as(context() + " " + what + ": " + result)
                        .isEqualTo("rejected");
                assertThat(result.path("errors").findValuesAsText("field")).as(context() + " " + what + ": " + result)
                        .contains("items[" + i + "].body." + planted.path());
                continue;
            }
            switch (items.get(i).path("type").asText()) {
                case "session" -> startAccepted = true;
                case "messages" -> items.get(i).path("body").path("messages")
                        .forEach(m -> accepted.put(m.path("message_index").asInt(), (ObjectNode) m));
                case "activities" -> items.get(i).path("body").path("events").forEach(acceptedDetails::add);
                default -> completed = true;
            }
        }
        expectSession(sessionId, startAccepted ? start : null, accepted, start.path("kind").asText(), acceptedDetails,
                completed ? complete : null);
    }

    private ObjectNode message(int index) {
        String role = List.of("user", "assistant", "tool").get(hostile.random().nextInt(3));
        ObjectNode message = NODES.objectNode().put("message_index", index).put("role", role)
                .put("content", hostile.text(hostile.chance(0.05) ? 200_000 : 20_000, true));
        if (hostile.chance(0.5)) {
            message.put("timestamp", "2025-10-02T10:0" + hostile.between(0, 9) + ":00Z");
        }
        if (role.equals("tool")) {
            message.put("tool_name", hostile.text(256, true));
            message.set("tool_input", hostile.chance(0.5) ? hostile.json(5) : NODES.textNode(hostile.text(2000, true)));
        }
        if (role.equals("assistant")) {
            if (hostile.chance(0.75)) {
                List<ObjectNode> steps = new ArrayList<>();
                for (int s = hostile.between(0, 4), order = 0; order < s; order++) {
                    steps.add(step(order));
                }
                // Sent out of order: they are read back in step_order.
                Collections.shuffle(steps, hostile.random());
                steps.forEach(message.putArray("thinking_steps")::add);
            } else {
                message.put("reasoning", hostile.text(20_000, true));
                ArrayNode tools = message.putArray("tools");
                for (int t = hostile.between(0, 2); t > 0; t--) {
                    tools.addObject().put("name", hostile.text(256, false)).put("result", hostile.text(2000, true))
                            .set("arguments", hostile.json(4));
                }
            }
        }
        return message;
    }

    private ObjectNode step(int order) {
        ObjectNode step = NODES.objectNode().put("step_order", order);
        if (hostile.chance(0.5)) {
            return step.put("step_type", "reasoning").put("content", hostile.text(20_000, false));
        }
        step.put("step_type", "tool").put("tool_name", hostile.text(256, false))
                .put("tool_result", hostile.text(20_000, true));
        step.set("tool_arguments", hostile.chance(0.1) ? hostile.deep(hostile.between(100, 900)) : hostile.json(6));
        if (hostile.chance(0.3)) {
            step.put("tool_error", hostile.text(65_536, true));
        }
        return step;
    }

    private ObjectNode activity() {
        ObjectNode event = NODES.objectNode().put("event_id", hostile.id("ev"))
                .put(hostile.chance(0.5) ? "timestamp" : "timestamp_iso", "2025-10-29T16:0" + hostile.between(0, 9)
                        + ":00Z");
        ObjectNode payload = NODES.objectNode();
        switch (hostile.random().nextInt(3)) {
            case 0 -> {
                event.put("event_type", "thought_log");
                payload.put("thought_text", hostile.text(20_000, false));
            }
            case 1 -> {
                event.put("event_type", "file_edit");
                payload.put("file_path", hostile.text(4096, false)).put("content_diff", hostile.text(20_000, true));
            }
            default -> {
                event.put("event_type", "command_run");
                payload.put("command_text", hostile.text(2000, false)).put("working_directory", hostile.text(200, true))
                        .put("exit_code", hostile.between(-255, 255)).put("stdout", hostile.text(20_000, true))
                        .put("stderr", hostile.text(20_000, true));
            }
        }
        event.set("payload", payload);
        return event;
    }

    private ObjectNode position(int actionId) {
        ObjectNode position = NODES.objectNode().put("action_id", actionId)
                .put("action_type", List.of("buy", "sell", "hold").get(hostile.random().nextInt(3)))
                .put("symbol", hostile.text(32, true));
        for (String field : List.of("amount", "price", "cash_after", "portfolio_value")) {
            position.put(field, switch (hostile.random().nextInt(4)) {
                case 0 -> 1e308;
                case 1 -> -Double.MIN_VALUE;
                case 2 -> hostile.random().nextGaussian() * 1e12;
                default -> hostile.between(0, 100_000) / 100.0;
            });
        }
        return position;
    }

    private void trace() {
        String traceId = hostile.id("trace");
        ObjectNode trace = NODES.objectNode().put("trace_id", traceId).put("developer_id", hostile.text(128, false))
                .put("task_id", hostile.text(128, false)).put("task_description", hostile.text(20_000, true))
                .put("repo_url", hostile.text(2048, true)).put("repo_commit_hash", hostile.text(128, true))
                .put("start_timestamp", "2025-10-29 T16:00:00Z").put("end_timestamp", "2025-10-29T18:00:00Z")
                .put(hostile.chance(0.5) ? "Final_code_diff" : "final_code_diff", hostile.text(20_000, true));
        ArrayNode events = trace.putArray("events");
        for (int e = hostile.between(1, 6); e > 0; e--) {
            events.add(activity());
        }
        trace.putNull("qa_results");
        Planted planted = maybePoison(trace);
        if (!expect("trace", wire.post(ingest("/v1/traces"), trace, escape(planted)), planted, "")) {
            return;
        }
        check("trace " + traceId, () -> {
            Answer read = wire.get(url(Service.QUERY, "/v1/traces/" + traceId));
            assertThat(read.status()).as("GET trace " + read).isEqualTo(200);
            JsonNode body = read.body();
            for (String field : List.of("developer_id", "task_id", "task_description", "repo_url",
                    "repo_commit_hash")) {
                assertThat(body.path(field).asText()).as(field).isEqualTo(trace.path(field).asText());
            }
            String diff = trace.has("Final_code_diff") ? trace.path("Final_code_diff").asText()
                    : trace.path("final_code_diff").asText();
            assertThat(body.path("Final_code_diff").asText()).as("Final_code_diff").isEqualTo(diff);
            assertThat(body.path("events").size()).as("events").isEqualTo(events.size());
            for (int i = 0; i < events.size(); i++) {
                assertThat(Wire.same(events.get(i).path("payload"), body.path("events").get(i).path("payload")))
                        .as("event " + i + " payload: sent %s, read %s", events.get(i).path("payload"),
                                body.path("events").get(i).path("payload")).isTrue();
            }
            // evaluation-service's judge has read it.
            assertThat(body.path("qa_results").path("status").asText()).as("qa_results").isEqualTo("completed");
        });
    }

    /**
     * An agent's run as OTLP/JSON: a chat that reasons and calls a tool, the tool's execution, a chat that answers, and
     * an HTTP span (ignored); hostile text in every message, the tool's name, arguments and result, and the resource.
     * A poisoned export carries a NUL or a lone surrogate in the tool's result: that span alone is refused, and the
     * session shows the tool step without a result.
     */
    private void otlp() {
        String conversation = hostile.id("otel");
        String trace = String.format("%016x%016x", hostile.random().nextLong() | 1, hostile.random().nextLong());
        String question = hostile.text(2_000, true);
        String reasoning = hostile.text(2_000, true);
        String tool = hostile.text(128, false);
        ObjectNode arguments = NODES.objectNode();
        arguments.set("input", hostile.json(4));
        String result = hostile.text(2_000, true);
        String answer = hostile.text(4_000, true);
        String service = hostile.text(128, true);
        boolean poisoned = hostile.chance(POISONED);
        boolean surrogate = poisoned && hostile.random().nextBoolean();
        String sentResult = !poisoned ? result : result + (surrogate ? "\uD800" : "\u0000");

        ObjectNode user = NODES.objectNode().put("role", "user");
        user.putArray("parts").addObject().put("type", "text").put("content", question);
        ObjectNode call = NODES.objectNode().put("role", "assistant");
        call.putArray("parts").addObject().put("type", "reasoning").put("content", reasoning);
        call.withArray("parts").addObject().put("type", "tool_call").put("id", "call-1").put("name", tool)
                .set("arguments", arguments);
        ObjectNode reply = NODES.objectNode().put("role", "assistant");
        reply.putArray("parts").addObject().put("type", "text").put("content", answer);

        ObjectNode export = NODES.objectNode();
        ObjectNode resource = export.putArray("resourceSpans").addObject();
        resource.putObject("resource").putArray("attributes").add(otlpAttribute("service.name", service));
        ArrayNode spans = resource.putArray("scopeSpans").addObject().putArray("spans");
        spans.add(otlpSpan(trace, "00000000000000a1", "chat", 1, 10,
                otlpAttribute("gen_ai.operation.name", "chat"), otlpAttribute("gen_ai.conversation.id", conversation),
                otlpAttribute("gen_ai.input.messages", NODES.arrayNode().add(user).toString()),
                otlpAttribute("gen_ai.output.messages", NODES.arrayNode().add(call).toString())));
        spans.add(otlpSpan(trace, "00000000000000a2", "execute_tool", 11, 20,
                otlpAttribute("gen_ai.operation.name", "execute_tool"), otlpAttribute("gen_ai.tool.name", tool),
                otlpAttribute("gen_ai.tool.call.id", "call-1"), otlpAttribute("gen_ai.tool.call.result", sentResult)));
        spans.add(otlpSpan(trace, "00000000000000a3", "GET /", 12, 13,
                otlpAttribute("http.request.method", "GET"), otlpAttribute("url.full", hostile.text(2_000, true))));
        spans.add(otlpSpan(trace, "00000000000000a4", "chat", 21, 30,
                otlpAttribute("gen_ai.operation.name", "chat"), otlpAttribute("gen_ai.conversation.id", conversation),
                otlpAttribute("gen_ai.input.messages", NODES.arrayNode().add(user).add(call).toString()),
                otlpAttribute("gen_ai.output.messages", NODES.arrayNode().add(reply).toString())));

        Answer answered = wire.post(ingest("/otlp/v1/traces"), export, surrogate || hostile.chance(0.2));
        log.add("otlp " + conversation + (poisoned ? " poisoned with " + (surrogate ? "a lone surrogate" : "NUL")
                + " in the tool's result" : "") + " -> " + answered.status() + " " + answered.body());
        assertThat(answered.status()).as(context() + "\notlp: " + answered).isEqualTo(200);
        if (poisoned) {
            assertThat(answered.body().path("partialSuccess").path("rejectedSpans").asLong())
                    .as(context() + "\notlp: " + answered).isEqualTo(1);
            assertThat(answered.body().path("partialSuccess").path("errorMessage").asText())
                    .as(context() + "\notlp: " + answered).contains("'gen_ai.tool.call.result'");
        } else {
            assertThat(answered.body().size()).as(context() + "\notlp: " + answered).isZero();
        }
        check("otlp session " + conversation, () -> {
            Answer read = wire.get(url(Service.QUERY, "/v1/sessions/" + conversation));
            assertThat(read.status()).as("GET session " + read).isEqualTo(200);
            JsonNode body = read.body();
            assertThat(body.path("labels").path("service.name").asText()).as("service.name").isEqualTo(service);
            JsonNode messages = body.path("messages");
            assertThat(messages.size()).as("messages").isEqualTo(2);
            assertThat(messages.get(0).path("content").asText()).as("question").isEqualTo(question);
            assertThat(messages.get(1).path("content").asText()).as("answer").isEqualTo(answer);
            JsonNode steps = messages.get(1).path("thinking_steps");
            // No step without content (design.md § OpenTelemetry in): blank reasoning makes none.
            boolean reasoned = !reasoning.isBlank();
            assertThat(steps.size()).as("steps").isEqualTo(reasoned ? 2 : 1);
            if (reasoned) {
                assertThat(steps.get(0).path("content").asText()).as("reasoning").isEqualTo(reasoning);
            }
            JsonNode toolStep = steps.get(reasoned ? 1 : 0);
            assertThat(toolStep.path("tool_name").asText()).as("tool").isEqualTo(tool);
            assertThat(Wire.same(arguments, toolStep.path("tool_arguments")))
                    .as("arguments: sent %s, read %s", arguments, toolStep.path("tool_arguments")).isTrue();
            if (poisoned) {
                assertThat(toolStep.has("tool_result")).as("the refused execution's result").isFalse();
            } else {
                assertThat(toolStep.path("tool_result").asText()).as("result").isEqualTo(result);
            }
        });
    }

    private static ObjectNode otlpSpan(String trace, String spanId, String name, long startMs, long endMs,
            ObjectNode... attributes) {
        long t0 = 1_764_000_000_000L * 1_000_000L;
        ObjectNode span = NODES.objectNode().put("traceId", trace).put("spanId", spanId).put("name", name)
                .put("kind", 3).put("startTimeUnixNano", Long.toString(t0 + startMs * 1_000_000L))
                .put("endTimeUnixNano", Long.toString(t0 + endMs * 1_000_000L));
        ArrayNode list = span.putArray("attributes");
        for (ObjectNode attribute : attributes) {
            list.add(attribute);
        }
        return span;
    }

    private static ObjectNode otlpAttribute(String key, String value) {
        ObjectNode attribute = NODES.objectNode().put("key", key);
        attribute.putObject("value").put("stringValue", value);
        return attribute;
    }

    private void decisionSet() {
        String decisionSetId = hostile.id("ds");
        String messageId = hostile.text(128, false);
        String sessionId = hostile.text(128, false);
        ObjectNode envelope = NODES.objectNode().put("event_type", "DECISION_SET_CREATED").put("level", "info");
        ObjectNode payload = envelope.putObject("payload").put("decision_set_id", decisionSetId)
                .put("message_id", messageId).put("session_id", sessionId)
                .put("question_text", hostile.text(20_000, true)).put("active_version", "v1")
                .put("timestamp", "2025-01-31T10:30:00.000Z");
        payload.putArray("shadow_versions").add("v2");
        payload.set("active_decision", decision("v1"));
        payload.putArray("shadow_decisions").add(decision("v2"));
        // A snapshot is an object (anything else is kept under "value").
        JsonNode snapshot = hostile.json(5);
        payload.set("context_snapshot", snapshot.isObject() ? snapshot : NODES.objectNode().set("value", snapshot));
        Planted planted = maybePoison(envelope, "payload.question_text", "payload.active_decision",
                "payload.shadow_decisions", "payload.context_snapshot");
        if (!expect("decision set", wire.post(ingest("/v1/decision-sets"), envelope, escape(planted)), planted, "")) {
            return;
        }
        boolean feedback = hostile.chance(0.5);
        ObjectNode signal = NODES.objectNode().put("event_type", "USER_BEHAVIOR_SIGNAL").put("level", "info");
        ObjectNode signalPayload = signal.putObject("payload").put("message_id", messageId).put("session_id", sessionId)
                .put("signal_type", feedback ? "explicit_feedback" : "smooth_completion")
                .put("timestamp", "2025-01-31T10:30:05.000Z");
        ObjectNode data = signalPayload.putObject("signal_data");
        if (feedback) {
            data.put("rating", hostile.chance(0.5) ? "up" : "down").put("comment", hostile.text(2000, true));
        } else {
            data.put("interaction_duration_seconds", 12.5).put("followup_questions", 0)
                    .put("user_satisfaction", hostile.text(200, true));
        }
        data.set("extra_" + hostile.between(0, 9), hostile.json(4));
        Planted signalPoison = maybePoison(signal, "payload.signal_data");
        boolean signalled = expect("terminal signal", wire.post(ingest("/v1/behavior-signals"), signal,
                escape(signalPoison)), signalPoison, "");
        check("decision set " + decisionSetId, () -> {
            Answer read = wire.get(url(Service.QUERY, "/v1/decision-sets/" + decisionSetId));
            assertThat(read.status()).as("GET decision set " + read).isEqualTo(200);
            JsonNode stored = read.body().path("decision_set").path("payload");
            for (String field : List.of("message_id", "session_id", "question_text")) {
                assertThat(stored.path(field).asText()).as(field).isEqualTo(payload.path(field).asText());
            }
            assertThat(stored.path("active_decision").path("reasoning").asText()).as("active reasoning")
                    .isEqualTo(payload.path("active_decision").path("reasoning").asText());
            assertThat(stored.path("shadow_decisions").path(0).path("reasoning").asText()).as("shadow reasoning")
                    .isEqualTo(payload.path("shadow_decisions").path(0).path("reasoning").asText());
            assertThat(Wire.same(payload.path("context_snapshot"), stored.path("context_snapshot")))
                    .as("context_snapshot: sent %s, read %s", payload.path("context_snapshot"),
                            stored.path("context_snapshot")).isTrue();
            if (signalled) {
                JsonNode read0 = read.body().path("signals").path(0).path("payload").path("signal_data");
                assertThat(Wire.same(data, read0)).as("signal_data: sent %s, read %s", data, read0).isTrue();
                // evaluation-service scored it on the terminal signal.
                assertThat(read.body().path("evaluations").size()).as("evaluations").isPositive();
            }
        });
    }

    private ObjectNode decision(String version) {
        ObjectNode decision = NODES.objectNode().put("info_need_type", "LOCAL_KNOWLEDGE")
                .put("decision_action", hostile.chance(0.5) ? "DIRECT_ANSWER" : "REQUIRE_COMM")
                .put("confidence_level", "high").put("reasoning", hostile.text(20_000, true)).put("version", version);
        if (hostile.chance(0.3)) {
            decision.set("rule_signals", hostile.json(3));
        }
        return decision;
    }

    private void memory() {
        ObjectNode record = NODES.objectNode().put("title", hostile.text(200, false))
                .put("description", hostile.text(2000, true)).put("content", hostile.text(20_000, false))
                .put("outcome", hostile.chance(0.5) ? "success" : "failure");
        ArrayNode tags = record.putArray("tags");
        for (int t = hostile.between(0, 4); t > 0; t--) {
            tags.add(hostile.text(64, false));
        }
        Planted planted = maybePoison(record, "title", "description", "content", "tags");
        Answer answer = wire.post(url(Service.MEMORY, "/v1/projects/" + project + "/memories"), record,
                escape(planted));
        if (!expect("memory record", answer, planted, "")) {
            return;
        }
        String id = answer.body().path("id").asText();
        check("memory " + id, () -> {
            Answer read = wire.get(url(Service.MEMORY, "/v1/memories/" + id));
            assertThat(read.status()).as("GET memory " + read).isEqualTo(200);
            // memory-service keeps a title and tags without surrounding white space, and no blank description.
            assertThat(read.body().path("title").asText()).as("title").isEqualTo(record.path("title").asText().strip());
            String description = record.path("description").asText();
            assertThat(read.body().path("description").asText(null)).as("description")
                    .isEqualTo(description.isBlank() ? null : description);
            assertThat(read.body().path("content").asText()).as("content").isEqualTo(record.path("content").asText());
            List<String> sent = new ArrayList<>();
            tags.forEach(tag -> sent.add(tag.asText().strip()));
            List<String> stored = new ArrayList<>();
            read.body().path("tags").forEach(tag -> stored.add(tag.asText()));
            assertThat(stored).as("tags").containsExactlyInAnyOrderElementsOf(sent.stream().distinct().toList());
        });
    }

    private void jsonl() {
        String jobId = hostile.text(128, false);
        String model = hostile.text(128, false);
        List<ObjectNode> lines = new ArrayList<>();
        List<Planted> poisons = new ArrayList<>();
        for (int i = hostile.between(1, 5); i > 0; i--) {
            ObjectNode line = NODES.objectNode().put("role", hostile.chance(0.5) ? "user" : "assistant")
                    .put("content", hostile.text(5000, true));
            lines.add(line);
            poisons.add(maybePoison(line, "content"));
        }
        StringBuilder body = new StringBuilder();
        for (ObjectNode line : lines) {
            body.append(Wire.write(line, true)).append('\n');
        }
        Answer answer = wire.post(ingest("/v1/imports/jsonl" + Wire.query(Map.of("job_id", jobId, "date",
                "2025-10-02", "model", model))), "application/x-ndjson", body.toString());
        assertThat(answer.status()).as(context() + " jsonl " + answer).isEqualTo(202);
        List<String> rejected = answer.body().path("rejected_lines").findValuesAsText("field");
        Map<Integer, ObjectNode> accepted = new TreeMap<>();
        for (int i = 0; i < lines.size(); i++) {
            if (poisons.get(i) != null) {
                assertThat(rejected).as(context() + " jsonl " + answer).contains("line " + (i + 1));
            } else {
                ObjectNode line = lines.get(i).deepCopy();
                accepted.put(accepted.size(), line.put("message_index", accepted.size()));
            }
        }
        String sessionId = answer.body().path("session_id").asText();
        check("jsonl session " + sessionId, () -> verifySession(sessionId, null, accepted, List.of(), List.of(),
                null));
    }

    // --- what every reader must show ---------------------------------------------------------------------------------

    private void expectSession(String id, ObjectNode start, Map<Integer, ObjectNode> messages, String kind,
            List<JsonNode> details, ObjectNode complete) {
        List<JsonNode> activities = kind.equals("debug") ? details : List.of();
        List<JsonNode> positions = kind.equals("trading") ? details : List.of();
        if (start == null && messages.isEmpty() && details.isEmpty() && complete == null) {
            // Every request about this session was refused: nothing was acknowledged, so there is nothing to show.
            // (A JSONL import is different: its answer acknowledges the session itself, whatever its lines.)
            check("session " + id, () -> assertThat(wire.get(url(Service.QUERY, "/v1/sessions/" + Wire.encode(id)))
                    .status()).as("GET session of which nothing was acknowledged").isEqualTo(404));
            return;
        }
        check("session " + id, () -> verifySession(id, start, messages, activities, positions, complete));
        if (start != null && complete != null && (!messages.isEmpty() || !activities.isEmpty())) {
            // memory-service distils every completed session with a known outcome and some evidence (turns or
            // activities) into its project's memories.
            check("memory of session " + id, () -> {
                Answer read = wire.get(url(Service.MEMORY, "/v1/projects/" + project + "/memories?limit=100"));
                assertThat(read.status()).as("GET memories " + read).isEqualTo(200);
                List<String> sources = new ArrayList<>();
                read.body().path("memories").forEach(m -> m.path("source_session_ids")
                        .forEach(source -> sources.add(source.asText())));
                assertThat(sources)
                        .as("memories distilled in " + project).contains(id);
            });
        }
    }

    private void verifySession(String id, ObjectNode start, Map<Integer, ObjectNode> messages,
            List<JsonNode> activities, List<JsonNode> positions, ObjectNode complete) {
        Answer read = wire.get(url(Service.QUERY, "/v1/sessions/" + Wire.encode(id)));
        assertThat(read.status()).as("GET session " + read).isEqualTo(200);
        JsonNode session = read.body();
        if (start != null) {
            assertThat(session.path("kind").asText()).as("kind").isEqualTo(start.path("kind").asText());
            assertThat(Wire.same(start.path("labels"), session.path("labels")))
                    .as("labels: sent %s, read %s", start.path("labels"), session.path("labels")).isTrue();
            JsonNode attributes = start.has("chat") ? start.path("chat") : start.path("debug");
            attributes.fields().forEachRemaining(field -> assertThat(session.path("attributes").path(field.getKey())
                    .asText()).as("attributes." + field.getKey()).isEqualTo(field.getValue().asText()));
            if (start.has("trading")) {
                assertThat(session.path("trading").path("job_id").asText()).as("job_id")
                        .isEqualTo(start.path("trading").path("job_id").asText());
                assertThat(session.path("trading").path("model").asText()).as("model")
                        .isEqualTo(start.path("trading").path("model").asText());
            }
        }
        Map<Integer, JsonNode> stored = new TreeMap<>();
        session.path("messages").forEach(m -> stored.put(m.path("message_index").asInt(), m));
        assertThat(stored.keySet()).as("message indexes").containsExactlyElementsOf(messages.keySet());
        messages.forEach((index, sent) -> verifyMessage(sent, stored.get(index)));
        Map<String, JsonNode> storedActivities = new LinkedHashMap<>();
        session.path("activities").forEach(a -> storedActivities.put(a.path("event_id").asText(), a));
        for (JsonNode activity : activities) {
            JsonNode found = storedActivities.get(activity.path("event_id").asText());
            assertThat(found).as("activity " + activity.path("event_id") + " in " + storedActivities.keySet())
                    .isNotNull();
            assertThat(Wire.same(activity.path("payload"), found.path("payload")))
                    .as("activity payload: sent %s, read %s", activity.path("payload"), found.path("payload")).isTrue();
        }
        Map<Integer, JsonNode> storedPositions = new TreeMap<>();
        session.path("positions").forEach(p -> storedPositions.put(p.path("action_id").asInt(), p));
        for (JsonNode position : positions) {
            JsonNode found = storedPositions.get(position.path("action_id").asInt());
            assertThat(found).as("position " + position.path("action_id")).isNotNull();
            for (String field : List.of("symbol", "amount", "price", "cash_after", "portfolio_value")) {
                assertThat(Wire.same(position.path(field), found.path(field)))
                        .as("position %s: sent %s, read %s", field, position.path(field), found.path(field)).isTrue();
            }
        }
        if (complete != null) {
            assertThat(session.path("outcome").asText()).as("outcome").isEqualTo(complete.path("outcome").asText());
            if (complete.has("final_code_diff")) {
                assertThat(session.path("final_code_diff").asText()).as("final_code_diff")
                        .isEqualTo(complete.path("final_code_diff").asText());
            }
            // evaluation-service summarised it.
            assertThat(session.path("session_summary").isTextual()).as("session_summary").isTrue();
        }
    }

    private static void verifyMessage(ObjectNode sent, JsonNode read) {
        String at = "message " + sent.path("message_index").asInt();
        assertThat(read.path("content").asText()).as(at + " content").isEqualTo(sent.path("content").asText());
        assertThat(read.path("role").asText()).as(at + " role").isEqualTo(sent.path("role").asText());
        if (sent.has("tool_name")) {
            assertThat(read.path("tool_name").asText()).as(at + " tool_name").isEqualTo(sent.path("tool_name").asText());
        }
        if (sent.has("tool_input")) {
            assertThat(sameArguments(sent.path("tool_input"), read.path("tool_input"), true))
                    .as(at + " tool_input: sent %s, read %s", sent.path("tool_input"), read.path("tool_input"))
                    .isTrue();
        }
        if (sent.path("role").asText().equals("assistant")) {
            // evaluation-service summarised it (an extractive summary may be empty, never absent).
            assertThat(read.path("summary").isTextual()).as(at + " summary").isTrue();
        }
        if (sent.has("thinking_steps")) {
            Map<Integer, JsonNode> steps = new TreeMap<>();
            sent.path("thinking_steps").forEach(s -> steps.put(s.path("step_order").asInt(), s));
            JsonNode readSteps = read.path("thinking_steps");
            assertThat(readSteps.size()).as(at + " steps").isEqualTo(steps.size());
            int i = 0;
            for (JsonNode step : steps.values()) {
                JsonNode got = readSteps.get(i++);
                for (String field : List.of("step_order", "step_type", "content", "tool_name", "tool_result",
                        "tool_error")) {
                    assertThat(Wire.same(step.path(field), got.path(field)))
                            .as(at + " step " + field + ": sent %s, read %s", step.path(field), got.path(field)).isTrue();
                }
                if (step.has("tool_arguments")) {
                    assertThat(sameArguments(step.path("tool_arguments"), got.path("tool_arguments"), false))
                            .as(at + " tool_arguments: sent %s, read %s", step.path("tool_arguments"),
                                    got.path("tool_arguments")).isTrue();
                }
            }
        }
        if (sent.has("reasoning")) {
            assertThat(read.path("reasoning").asText()).as(at + " reasoning").isEqualTo(sent.path("reasoning").asText());
            assertThat(read.path("tools").size()).as(at + " tools").isEqualTo(sent.path("tools").size());
            for (int t = 0; t < sent.path("tools").size(); t++) {
                JsonNode tool = sent.path("tools").get(t);
                JsonNode got = read.path("tools").get(t);
                assertThat(got.path("tool_name").asText()).as(at + " tool name").isEqualTo(tool.path("name").asText());
                assertThat(got.path("tool_result").asText()).as(at + " tool result")
                        .isEqualTo(tool.path("result").asText());
                assertThat(sameArguments(tool.path("arguments"), got.path("tool_arguments"), false))
                        .as(at + " legacy arguments: sent %s, read %s", tool.path("arguments"),
                                got.path("tool_arguments")).isTrue();
            }
        }
    }

    /**
     * Tool input and arguments as sent: the same JSON value, a string included; {@code tool_input} is served as text
     * (a string as it is, structured input as its JSON text).
     */
    private static boolean sameArguments(JsonNode sent, JsonNode read, boolean servedAsText) {
        if (!servedAsText) {
            return Wire.same(sent, read);
        }
        if (sent.isTextual()) {
            return read.isTextual() && read.asText().equals(sent.asText());
        }
        try {
            return Wire.same(sent, Wire.JSON.readTree(read.asText()));
        } catch (java.io.IOException notJson) {
            return false;
        }
    }

    // --- bookkeeping ------------------------------------------------------------------------------------------------

    /** A poison in a quarter of the requests, at a random leaf (under one of {@code under} when given). */
    private Planted maybePoison(ObjectNode request, String... under) {
        return hostile.chance(POISONED) ? hostile.poison(request, under) : null;
    }

    /** Whether the request must be written with escapes: a lone surrogate cannot be sent any other way. */
    private boolean escape(Planted planted) {
        return (planted != null && planted.kind().equals("a lone surrogate")) || hostile.chance(0.2);
    }

    /**
     * Checks the answer: a clean request is acknowledged, a poisoned one refused with 400 naming the poisoned path.
     * Returns whether it was acknowledged.
     */
    private boolean expect(String what, Answer answer, Planted planted, String prefix) {
        log.add(what + (planted == null ? "" : " poisoned with " + planted.kind() + " at " + planted.path()) + " -> "
                + answer.status());
        if (planted == null) {
            assertThat(answer.status()).as(context() + "\n" + what + ": " + answer).isBetween(200, 299);
            return true;
        }
        assertThat(answer.status()).as(context() + "\n" + what + " with " + planted + ": " + answer).isEqualTo(400);
        assertThat(answer.body().path("errors").findValuesAsText("field"))
                .as(context() + "\n" + what + " with " + planted + ": " + answer).contains(prefix + planted.path());
        return false;
    }

    private void check(String name, Runnable verification) {
        pending.put(name, verification);
    }

    private void verifyPending() {
        Map<String, String> failing = new LinkedHashMap<>();
        pending.entrySet().removeIf(entry -> {
            try {
                entry.getValue().run();
                return true;
            } catch (AssertionError | RuntimeException e) {
                String message = String.valueOf(e.getMessage());
                failing.put(entry.getKey(), message.length() > 800 ? message.substring(0, 800) + "..." : message);
                return false;
            }
        });
        if (!failing.isEmpty()) {
            StringBuilder out = new StringBuilder(failing.size() + " not visible yet:");
            failing.forEach((name, why) -> out.append("\n- ").append(name).append(": ").append(why));
            throw new AssertionError(out.toString());
        }
    }

    private String context() {
        return "seed " + seed + " (replay with -Dhindsight.test.seed=" + seed + "); requests so far:\n  "
                + String.join("\n  ", log.subList(Math.max(0, log.size() - 40), log.size()));
    }

    private String ingest(String path) {
        return url(Service.INGEST, path);
    }

    private static String url(Service service, String path) {
        return system.url(service) + path;
    }
}
