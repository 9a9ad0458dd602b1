package dev.hindsight.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hindsight.events.memory.MemoryEvent;
import dev.hindsight.events.memory.MemoryRecorded;
import dev.hindsight.system.RunningSystem.Service;
import dev.hindsight.testing.McpClient;
import dev.hindsight.testing.TestCrypto;
import dev.hindsight.testing.TestKafka;
import dev.hindsight.testing.TestTenants;
import dev.hindsight.testing.TestTopics;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * No secret reaches the log, and what people wrote reaches it only sealed (docs/guarantees.md, ADR 0027): secrets of
 * five kinds planted in every kind of event a producer can send, and in a memory recorded over MCP, are on no topic
 * afterwards, in values, keys or headers, dead-letter topics included, neither in the bytes nor in what sealed events
 * open to. A marker planted beside each one is in what the events open to, so the reader is proven to see the text,
 * and in none of the bytes on the broker, nor is the memory's vector, while the ids stay clear. Summaries, verdicts
 * and the memory are on their topics (so what is derived is scanned too). The API and the console show the redaction
 * markers; an identical re-send of a message holding a secret is the same event; a tenant whose policy is keep reads
 * its secrets back as sent.
 */
class SecretsRedactedIT {

    private static final Duration WAIT = Duration.ofSeconds(120);
    private static final SecureRandom RANDOM = new SecureRandom();

    private static RunningSystem system;

    @BeforeAll
    static void startTheSystem() {
        system = RunningSystem.shared();
    }

    @Test
    void noPlantedSecretIsOnAnyTopicWhileEveryMarkerBesideOneIs() throws Exception {
        String run = random(8).toLowerCase();
        Secrets secrets = Secrets.fresh();
        Map<String, Long> deadLettersBefore = DeadLetters.count().entrySet().stream()
                .collect(Collectors.toMap(e -> e.getKey().toString(), Map.Entry::getValue));
        Wire wire = new Wire(TestTenants.TENANT_A.bearer());
        String ingest = system.url(Service.INGEST);
        String query = system.url(Service.QUERY);
        List<String> markers = new ArrayList<>();

        // A chat session: its title, a user's message, and an assistant's thinking steps and tool call.
        String chat = "redaction-chat-" + run;
        assertThat(wire.post(ingest + "/v1/sessions", object().put("session_id", chat).put("kind", "chat")
                .set("chat", object().put("agent", "support-bot").put("title", planted(markers, "title", run,
                        secrets))), false).status()).isEqualTo(202);
        ObjectNode userMessage = object().put("message_index", 0).put("role", "user")
                .put("content", planted(markers, "user-message", run, secrets));
        ArrayNode steps = Wire.JSON.createArrayNode();
        steps.add(object().put("step_order", 0).put("step_type", "reasoning")
                .put("content", planted(markers, "reasoning-step", run, secrets)));
        steps.add(object().put("step_order", 1).put("step_type", "tool").put("tool_name", "http_get")
                .<ObjectNode>set("tool_arguments", object().put("url", "https://api.example.com/orders")
                        .put("note", marker(markers, "tool-arguments", run))
                        .<ObjectNode>set("headers", object().put("Authorization", "Bearer " + secrets.bearer()))
                        .set("db", object().put("dsn", "postgres://app:" + secrets.password() + "@db:5432/orders")
                                .put("private_key", secrets.privateKey()).put("session", secrets.jwt())
                                .put("aws", secrets.awsKey())))
                .put("tool_result", planted(markers, "tool-result", run, secrets))
                .put("tool_error", planted(markers, "tool-error", run, secrets)));
        ObjectNode assistantMessage = object().put("message_index", 1).put("role", "assistant")
                .put("content", planted(markers, "assistant-message", run, secrets)).set("thinking_steps", steps);
        Wire.Answer first = wire.post(ingest + "/v1/sessions/" + chat + "/messages",
                object().set("messages", array(userMessage, assistantMessage)), false);
        assertThat(first.status()).as(first.text()).isEqualTo(202);

        // A position, activities, and the session's end, each with its own text.
        assertThat(wire.post(ingest + "/v1/sessions/" + chat + "/positions", object().set("positions", array(
                object().put("action_id", 0).put("action_type", "buy")
                        .put("symbol", marker(markers, "pos", run)).put("amount", 3))), false).status())
                .isEqualTo(202);
        assertThat(wire.post(ingest + "/v1/sessions/" + chat + "/activities", object().set("events", array(
                object().put("event_id", "activity-" + run).put("timestamp", "2026-11-29T10:00:30Z")
                        .put("event_type", "thought_log").set("payload", object().put("thought_text",
                                planted(markers, "activity-thought", run, secrets))))), false).status())
                .isEqualTo(202);
        assertThat(wire.post(ingest + "/v1/sessions/" + chat + "/complete", object().put("outcome", "success")
                .put("summary_hint", planted(markers, "summary-hint", run, secrets)), false).status())
                .isEqualTo(202);

        // A debugging trace: a thought and a command's error output.
        String trace = UUID.randomUUID().toString();
        ObjectNode traceBody = object().put("trace_id", trace).put("developer_id", "dev-42").put("task_id", "T-1")
                .put("task_description", planted(markers, "trace-task", run, secrets))
                .put("start_timestamp", "2026-11-29T10:00:00Z").put("end_timestamp", "2026-11-29T10:05:00Z");
        traceBody.set("events", array(
                object().put("event_id", UUID.randomUUID().toString()).put("timestamp", "2026-11-29T10:01:00Z")
                        .put("event_type", "thought_log").set("payload", object().put("thought_text",
                                planted(markers, "trace-thought", run, secrets))),
                object().put("event_id", UUID.randomUUID().toString()).put("timestamp", "2026-11-29T10:02:00Z")
                        .put("event_type", "command_run").set("payload", object().put("command_text", "psql")
                                .put("exit_code", 2).put("stdout", "").put("stderr",
                                        planted(markers, "trace-stderr", run, secrets)))));
        assertThat(wire.post(ingest + "/v1/traces", traceBody, false).status()).isEqualTo(202);

        // A decision set and a behaviour signal on its message.
        String messageId = "redaction-msg-" + run;
        String decisionSetId = "redaction-ds-" + run;
        ObjectNode decisionSet = object().put("event_type", "DECISION_SET_CREATED");
        decisionSet.set("payload", object().put("decision_set_id", decisionSetId).put("message_id", messageId)
                .put("session_id", chat).put("question_text", planted(markers, "question", run, secrets))
                .put("active_version", "v1").<ObjectNode>set("active_decision", object()
                        .put("info_need_type", "LOCAL_KNOWLEDGE").put("decision_action", "DIRECT_ANSWER")
                        .put("reasoning", planted(markers, "decision-reasoning", run, secrets)))
                .<ObjectNode>set("context_snapshot", object().put("execution_phase", "planning")
                        .put("note", planted(markers, "context", run, secrets)))
                .put("timestamp", "2026-11-29T10:00:00.000Z"));
        assertThat(wire.post(ingest + "/v1/decision-sets", decisionSet, false).status()).isEqualTo(202);
        ObjectNode signal = object().put("event_type", "USER_BEHAVIOR_SIGNAL");
        signal.set("payload", object().put("message_id", messageId).put("session_id", chat)
                .put("signal_type", "user_followup_override").<ObjectNode>set("signal_data", object()
                        .put("user_action", "/comm search").put("delay_seconds", 3)
                        .put("override_reason", planted(markers, "signal-reason", run, secrets))
                        .put("notes", planted(markers, "signal-extra", run, secrets)))
                .put("timestamp", "2026-11-29T10:00:05.000Z"));
        assertThat(wire.post(ingest + "/v1/behavior-signals", signal, false).status()).isEqualTo(202);

        // An OpenTelemetry GenAI span: the input messages as a JSON attribute, a plain attribute, the status.
        String conversation = "redaction-otel-" + run;
        String inputMessages = Wire.JSON.writeValueAsString(array(object().put("role", "user").set("parts",
                array(object().put("type", "text").put("content", planted(markers, "otel-input", run, secrets))))));
        ObjectNode span = object().put("traceId", hex(16)).put("spanId", hex(8)).put("name", "chat gpt-5")
                .put("kind", 3).put("startTimeUnixNano", "1764410400000000000")
                .put("endTimeUnixNano", "1764410401000000000");
        span.set("attributes", array(attribute("gen_ai.operation.name", "chat"),
                attribute("gen_ai.conversation.id", conversation), attribute("gen_ai.request.model", "gpt-5"),
                attribute("gen_ai.input.messages", inputMessages),
                attribute("input.value", planted(markers, "otel-value", run, secrets))));
        span.set("status", object().put("code", 2).put("message", planted(markers, "otel-status", run, secrets)));
        ObjectNode otlp = object();
        otlp.set("resourceSpans", array(object().<ObjectNode>set("resource", object().set("attributes",
                        array(attribute("service.name", "redaction-agent"))))
                .set("scopeSpans", array(object().set("spans", array(span))))));
        assertThat(wire.post(ingest + "/otlp/v1/traces", otlp, false).status()).isEqualTo(200);

        // A memory recorded over MCP, as an agent records one.
        McpClient agent = new McpClient(URI.create(system.url(Service.MEMORY) + "/mcp"),
                TestTenants.TENANT_A.bearer());
        agent.initialize();
        String project = "redaction-" + run;
        JsonObject recorded = agent.callTool("memory_record", new JsonObject().put("project_id", project)
                .put("title", "Connecting to the orders database " + run)
                .put("content", planted(markers, "memory-content", run, secrets)).put("outcome", "success")
                .put("tags", new JsonArray().add(marker(markers, "memory-tag", run))));
        assertThat(recorded.getBoolean("isError", false)).as(recorded.encode()).isFalse();

        // Each is projected, and the API shows the markers where the secrets stood.
        JsonNode session = await("the chat in query-service").atMost(WAIT).pollInterval(Duration.ofMillis(500))
                .until(() -> wire.get(query + "/v1/sessions/" + chat), a -> a.status() == 200
                        && a.body().path("messages").size() == 2).body();
        String shown = session.toString();
        assertThat(shown).contains(marker(markers, "user-message", run)).contains("[REDACTED:aws-access-key-id]")
                .contains("[REDACTED:bearer-token]").contains("[REDACTED:jwt]").contains("[REDACTED:url-password]")
                .contains("[REDACTED:private-key]");
        await("the trace").atMost(WAIT).until(() -> wire.get(query + "/v1/traces/" + trace).status() == 200);
        await("the decision set").atMost(WAIT).until(() -> wire.get(query + "/v1/decision-sets/" + decisionSetId),
                a -> a.status() == 200 && a.body().path("signals").size() == 1);
        await("the span's session").atMost(WAIT).until(() -> wire.get(query + "/v1/sessions/" + conversation)
                .status() == 200);

        // The console shows them too.
        HttpClient http = HttpClient.newHttpClient();
        String page = http.send(HttpRequest.newBuilder(URI.create(query + "/ui/sessions/" + chat))
                .header("Cookie", Console.signIn(http, query, TestTenants.TENANT_A)).GET().build(), HttpResponse.BodyHandlers.ofString()).body();
        assertThat(page).contains(marker(markers, "reasoning-step", run)).contains("[REDACTED:aws-access-key-id]")
                .doesNotContain(secrets.awsKey());

        // An identical re-send of messages holding secrets is the same events: no conflict, the same ids.
        Wire.Answer again = wire.post(ingest + "/v1/sessions/" + chat + "/messages",
                object().set("messages", array(userMessage, assistantMessage)), false);
        assertThat(again.status()).as(again.text()).isEqualTo(202);
        assertThat(eventIds(again.body())).isEqualTo(eventIds(first.body()));

        // Every topic, read as bytes: none of the secrets anywhere, every marker in what sealed events open to, and
        // once summaries, a verdict and the memory were published too.
        Scan scan = await("every marker and every derived event on the topics").atMost(WAIT)
                .pollInterval(Duration.ofSeconds(2)).until(SecretsRedactedIT::everyRecord, found ->
                        markers.stream().allMatch(found.opened()::contains)
                                && found.keysOn("hindsight.insights.v1").containsAll(List.of(chat, trace))
                                && found.keysOn("hindsight.memory.v1").contains(memoryId(recorded)));
        for (String secret : secrets.all()) {
            assertThat(scan.raw()).as("a planted secret on a topic").doesNotContain(secret);
            assertThat(scan.opened()).as("a planted secret in a sealed event").doesNotContain(secret);
        }
        for (String marker : markers) {
            assertThat(scan.raw()).as("what people wrote, in clear on a topic").doesNotContain(marker);
        }
        assertThat(scan.raw()).as("record keys stay clear: the reader sees text").contains(chat).contains(trace)
                .contains(messageId).contains(memoryId(recorded));
        String vector = vectorBytes(memoryId(recorded));
        assertThat(scan.opened()).as("the memory's vector, in the event it opens to").contains(vector);
        assertThat(scan.raw()).as("the memory's vector, in clear on a topic").doesNotContain(vector);
        assertThat(DeadLetters.count().entrySet().stream()
                .filter(e -> e.getValue() > deadLettersBefore.getOrDefault(e.getKey().toString(), 0L))
                .map(e -> e.getKey().toString()).toList()).as("dead-lettered by this test").isEmpty();
    }

    @Test
    void aTenantWhosePolicyIsKeepReadsItsSecretsBackAsSent() {
        Secrets secrets = Secrets.fresh();
        Wire wire = new Wire(TestTenants.KEEP.bearer());
        String chat = "keep-chat-" + random(8).toLowerCase();
        String content = "connect with postgres://app:" + secrets.password() + "@db:5432/x using " + secrets.awsKey();
        assertThat(wire.post(system.url(Service.INGEST) + "/v1/sessions", object().put("session_id", chat)
                .put("kind", "chat"), false).status()).isEqualTo(202);
        assertThat(wire.post(system.url(Service.INGEST) + "/v1/sessions/" + chat + "/messages", object()
                .set("messages", array(object().put("message_index", 0).put("role", "user")
                        .put("content", content))), false).status()).isEqualTo(202);

        JsonNode session = await("the kept session").atMost(WAIT).pollInterval(Duration.ofMillis(500))
                .until(() -> wire.get(system.url(Service.QUERY) + "/v1/sessions/" + chat),
                        a -> a.status() == 200 && a.body().path("messages").size() == 1).body();
        assertThat(session.path("messages").get(0).path("content").asText()).isEqualTo(content);
    }

    /** Five kinds of secret, fresh for each run: so a find can only be this run's. */
    private record Secrets(String awsKey, String bearer, String jwt, String privateKeyBody, String password) {

        static Secrets fresh() {
            return new Secrets("AK" + "IA" + random(16).toUpperCase(), random(28) + "9",
                    "ey" + "JhbGciOiJIUzI1NiJ9.eyJ" + random(24) + "." + random(30),
                    random(64) + "\n" + random(64) + "\n" + random(20) + "==", "Pw" + random(12) + "7");
        }

        String privateKey() {
            return "-----BEGIN PRIVATE KEY-----\n" + privateKeyBody + "\n-----END PRIVATE KEY-----";
        }

        /** What must be found nowhere: each secret, and each line of the key's body. */
        List<String> all() {
            List<String> all = new ArrayList<>(List.of(awsKey, bearer, jwt.substring(jwt.lastIndexOf('.') + 1),
                    password));
            all.addAll(List.of(privateKeyBody.split("\n")));
            return all;
        }
    }

    /** Text planted at {@code place}: its marker, then every secret, in the forms people paste them. */
    private static String planted(List<String> markers, String place, String run, Secrets secrets) {
        return marker(markers, place, run) + " key " + secrets.awsKey() + " then Authorization: Bearer "
                + secrets.bearer() + ", session " + secrets.jwt() + ", dsn postgres://app:" + secrets.password()
                + "@db:5432/orders and\n" + secrets.privateKey() + "\ndone";
    }

    private static String marker(List<String> markers, String place, String run) {
        String marker = "marker-" + place + "-" + run;
        if (!markers.contains(marker)) {
            markers.add(marker);
        }
        return marker;
    }

    /**
     * What every record on the broker holds: its key, value and headers as they are ({@code raw}), and what its sealed
     * value opens to ({@code opened}), each byte one character (ISO-8859-1), so that text and a vector's bytes are
     * found alike; and the keys each topic holds.
     */
    private record Scan(String raw, String opened, Map<String, List<String>> keys) {

        List<String> keysOn(String topic) {
            return keys.getOrDefault(topic, List.of());
        }
    }

    /**
     * Every record of every Hindsight topic on the broker, dead-letter topics included, from its beginning (the
     * consumer decompresses; Avro writes strings as their UTF-8 bytes, floats as their four little-endian bytes).
     */
    private static Scan everyRecord() throws Exception {
        Map<String, Object> config = new HashMap<>();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, TestKafka.bootstrapServers());
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_uncommitted");
        config.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000);
        List<TopicPartition> partitions = new ArrayList<>();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                TestKafka.bootstrapServers()))) {
            List<String> topics = admin.listTopics().names().get(30, TimeUnit.SECONDS).stream()
                    .filter(name -> name.startsWith("hindsight.")).toList();
            admin.describeTopics(topics).allTopicNames().get(30, TimeUnit.SECONDS).values().forEach(topic ->
                    topic.partitions().forEach(p -> partitions.add(new TopicPartition(topic.name(), p.partition()))));
        }
        StringBuilder text = new StringBuilder();
        StringBuilder opened = new StringBuilder();
        Map<String, List<String>> keys = new HashMap<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = new LinkedHashMap<>(consumer.endOffsets(partitions));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (ends.entrySet().stream().anyMatch(e -> consumer.position(e.getKey()) < e.getValue())) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("the topics could not be read to their end within 60 s");
                }
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(500))) {
                    append(text, record.key());
                    append(text, record.value());
                    for (Header header : record.headers()) {
                        text.append(header.key()).append('=');
                        append(text, header.value());
                    }
                    // What a sealed event opens to (ADR 0027): sealing must not be what hides a secret.
                    append(opened, TestCrypto.opened(TestKafka.bootstrapServers(), record.topic(), record.value()));
                    if (record.key() != null) {
                        keys.computeIfAbsent(record.topic(), t -> new ArrayList<>())
                                .add(new String(record.key(), StandardCharsets.UTF_8));
                    }
                }
            }
        }
        return new Scan(text.toString(), opened.toString(), keys);
    }

    private static void append(StringBuilder text, byte[] bytes) {
        if (bytes != null) {
            text.append(new String(bytes, StandardCharsets.ISO_8859_1)).append('\n');
        }
    }

    private static String memoryId(JsonObject recorded) {
        return new JsonObject(recorded.getJsonArray("content").getJsonObject(0).getString("text"))
                .getString("id");
    }

    /** The first 16 numbers of the memory's vector as Avro writes them (little-endian floats), one char a byte. */
    private static String vectorBytes(String memoryId) {
        MemoryRecorded memory = TestTopics.readAll(TestKafka.bootstrapServers(), "hindsight.memory.v1",
                        MemoryEvent.class).stream()
                .filter(e -> memoryId.equals(e.getMemoryId()) && e.getPayload() instanceof MemoryRecorded)
                .map(e -> (MemoryRecorded) e.getPayload()).findFirst().orElseThrow();
        List<Float> vector = memory.getEmbedding().getVector();
        ByteBuffer bytes = ByteBuffer.allocate(64).order(ByteOrder.LITTLE_ENDIAN);
        vector.subList(0, 16).forEach(bytes::putFloat);
        return new String(bytes.array(), StandardCharsets.ISO_8859_1);
    }

    private static List<String> eventIds(JsonNode accepted) {
        List<String> ids = new ArrayList<>();
        accepted.path("receipts").forEach(receipt -> ids.add(receipt.path("event_id").asText()));
        return ids;
    }

    private static ObjectNode object() {
        return Wire.JSON.createObjectNode();
    }

    private static ArrayNode array(JsonNode... elements) {
        ArrayNode array = Wire.JSON.createArrayNode();
        for (JsonNode element : elements) {
            array.add(element);
        }
        return array;
    }

    private static ObjectNode attribute(String key, String value) {
        return object().put("key", key).set("value", object().put("stringValue", value));
    }

    private static String random(int length) {
        String alphabet = "abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
        StringBuilder out = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            out.append(alphabet.charAt(RANDOM.nextInt(alphabet.length())));
        }
        return out.toString();
    }

    private static String hex(int bytes) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < bytes; i++) {
            out.append(String.format("%02x", RANDOM.nextInt(1, 256)));
        }
        return out.toString();
    }
}
