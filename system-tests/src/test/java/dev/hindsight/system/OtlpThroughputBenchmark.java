package dev.hindsight.system;

import com.google.protobuf.ByteString;
import dev.hindsight.system.RunningSystem.Service;
import dev.hindsight.testing.TestTenants;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

/**
 * Benchmark, not a test (no assertion, never in CI; {@code bench/otlp-throughput.sh} runs it): the same agent
 * conversations sent to ingest-service two ways, in one run, by {@code CONCURRENCY} clients back to back: as events
 * through {@code POST /v1/events:batch} (per conversation a session item and a messages item of two messages, the
 * answer's steps inline: 3 events) and as OpenTelemetry spans through {@code POST /otlp/v1/traces} (invoke_agent, chat
 * with a reasoning part and a tool call, execute_tool, chat with the answer: 4 spans, protobuf, gzip as exporters send
 * them). Each request carries {@code CONVERSATIONS} conversations. The two paths alternate, twice, after a warm-up of
 * each; only acknowledged events and spans count. Tenant quotas are off (this measures the paths, not the quota). The
 * whole system runs (the consumers compete for the same two cores as on a developer machine). Written to
 * {@code target/otlp-throughput.md}.
 */
class OtlpThroughputBenchmark {

    private static final int SECONDS = Integer.getInteger("hindsight.bench.seconds", 20);
    private static final int CONCURRENCY = Integer.getInteger("hindsight.bench.concurrency", 8);
    private static final int CONVERSATIONS = Integer.getInteger("hindsight.bench.conversations", 25);
    private static final String QUESTION = "Why does the CSV export drop its last row when the file ends without a "
            + "newline? It happens only on Windows.";
    private static final String REASONING = "The last row is lost only without a trailing newline: look at how the "
            + "exporter splits lines.";
    private static final String ARGUMENTS = "{\"q\":\"split('\\\\n')\",\"path\":\"src/export\"}";
    private static final String RESULT = "src/export/csv.py:42: rows = text.split('\\n')[:-1]";
    private static final String ANSWER = "The exporter drops the last field after split('\\n'); use splitlines(), "
            + "which keeps the last row whether or not the file ends with a newline.";

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void spansPerSecondBesideEventsPerSecondForTheSameConversations() throws Exception {
        List<String> out = new ArrayList<>(List.of("OTLP spans beside batch events, " + Instant.now() + ", "
                        + SECONDS + " s per phase, " + CONCURRENCY + " clients, " + CONVERSATIONS
                        + " conversations per request", "",
                "| phase | requests | conversations/s | events or spans/s | p50 / p99 request (ms) | last "
                        + "conversation readable from query-service after the phase |",
                "|---|---|---|---|---|---|"));
        try (RunningSystem system = RunningSystem.builder()
                .config(Service.INGEST, Map.of("hindsight.ingest.quota.enabled", "false")).start()) {
            String ingest = system.url(Service.INGEST);
            String query = system.url(Service.QUERY);
            run(ingest, query, false, 10);
            run(ingest, query, true, 10);
            for (int round = 1; round <= 2; round++) {
                out.add("| events:batch, round " + round + " | " + run(ingest, query, false, SECONDS) + " |");
                out.add("| otlp/v1/traces, round " + round + " | " + run(ingest, query, true, SECONDS) + " |");
            }
        }
        Files.write(Path.of("target", "otlp-throughput.md"), out);
        out.forEach(System.out::println);
    }

    /**
     * One phase: "requests | conversations/s | units/s | p50 / p99 | drained"; the last figure is how long after the
     * phase the last conversation acknowledged could be read whole from query-service (its projection catching up).
     */
    private String run(String ingest, String query, boolean otlp, int seconds) {
        long deadline = System.nanoTime() + Duration.ofSeconds(seconds).toNanos();
        AtomicLong conversations = new AtomicLong();
        AtomicLong units = new AtomicLong();
        List<Long> latencies = java.util.Collections.synchronizedList(new ArrayList<>());
        java.util.concurrent.atomic.AtomicReference<String> last = new java.util.concurrent.atomic.AtomicReference<>();
        long start = System.nanoTime();
        List<CompletableFuture<Void>> clients = new ArrayList<>();
        for (int c = 0; c < CONCURRENCY; c++) {
            clients.add(CompletableFuture.runAsync(() -> {
                while (System.nanoTime() < deadline) {
                    long sent = System.nanoTime();
                    String conversation = "bench-" + UUID.randomUUID();
                    int acknowledged = otlp ? otlp(ingest, conversation) : batch(ingest, conversation);
                    last.set(conversation);
                    latencies.add(System.nanoTime() - sent);
                    conversations.addAndGet(CONVERSATIONS);
                    units.addAndGet(acknowledged);
                }
            }));
        }
        clients.forEach(CompletableFuture::join);
        double elapsed = (System.nanoTime() - start) / 1e9;
        long ended = System.nanoTime();
        String drained;
        try {
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(300)).pollInterval(Duration.ofMillis(100))
                    .until(() -> readable(query, last.get()));
            drained = String.format(java.util.Locale.ROOT, "%.1f s", (System.nanoTime() - ended) / 1e9);
        } catch (org.awaitility.core.ConditionTimeoutException notYet) {
            drained = "not within 300 s";
        }
        List<Long> sorted = new ArrayList<>(latencies);
        sorted.sort(null);
        return String.format(java.util.Locale.ROOT, "%d | %.0f | %.0f %s | %.1f / %.1f | %s", sorted.size(),
                conversations.get() / elapsed, units.get() / elapsed, otlp ? "spans" : "events",
                percentile(sorted, 0.50), percentile(sorted, 0.99), drained);
    }

    /** Whether query-service shows the conversation with both its messages. */
    private boolean readable(String query, String conversation) {
        try {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(query + "/v1/sessions/"
                    + conversation)).header("Authorization", TestTenants.TENANT_A.bearer()).build(),
                    HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == 200
                    && Wire.JSON.readTree(response.body()).path("messages").size() == 2;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static double percentile(List<Long> sorted, double p) {
        return sorted.isEmpty() ? 0 : sorted.get((int) Math.min(sorted.size() - 1, Math.ceil(p * sorted.size()) - 1))
                / 1e6;
    }

    /** A batch of conversations as events; the number of events acknowledged. */
    private int batch(String ingest, String lastConversation) {
        StringBuilder body = new StringBuilder("{\"items\": [");
        for (int i = 0; i < CONVERSATIONS; i++) {
            String session = i == CONVERSATIONS - 1 ? lastConversation : "bench-" + UUID.randomUUID();
            if (i > 0) {
                body.append(',');
            }
            body.append("{\"type\": \"session\", \"body\": {\"session_id\": \"").append(session)
                    .append("\", \"kind\": \"chat\", \"chat\": {\"agent\": \"csv-fixer\", \"model\": \"gpt-5\"}}},")
                    .append("{\"type\": \"messages\", \"session_id\": \"").append(session)
                    .append("\", \"body\": {\"messages\": [{\"message_index\": 0, \"role\": \"user\", \"content\": ")
                    .append(quoted(QUESTION)).append("}, {\"message_index\": 1, \"role\": ")
                    .append("\"assistant\", \"content\": ").append(quoted(ANSWER))
                    .append(", \"thinking_steps\": [{\"step_order\": 0, \"step_type\": \"reasoning\", \"content\": ")
                    .append(quoted(REASONING)).append("}, {\"step_order\": 1, \"step_type\": \"tool\", ")
                    .append("\"tool_name\": \"search_code\", \"tool_arguments\": ").append(ARGUMENTS)
                    .append(", \"tool_result\": ").append(quoted(RESULT)).append("}]}]}}");
        }
        body.append("]}");
        HttpResponse<String> response = send(HttpRequest.newBuilder(URI.create(ingest + "/v1/events:batch"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString())), HttpResponse.BodyHandlers.ofString());
        try {
            int accepted = Wire.JSON.readTree(response.body()).path("accepted").asInt();
            if (accepted != 2 * CONVERSATIONS) {
                throw new IllegalStateException("ingest accepted " + accepted + " of " + 2 * CONVERSATIONS
                        + " items: " + response.body());
            }
            return 3 * CONVERSATIONS;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The same conversations as an OTLP export of their agents' spans; the number of spans acknowledged. */
    private int otlp(String ingest, String lastConversation) {
        ScopeSpans.Builder scope = ScopeSpans.newBuilder();
        long t0 = System.currentTimeMillis() * 1_000_000L;
        String user = "{\"role\":\"user\",\"parts\":[{\"type\":\"text\",\"content\":" + quoted(QUESTION)
                + "}]}";
        String call = "{\"role\":\"assistant\",\"parts\":[{\"type\":\"reasoning\",\"content\":"
                + quoted(REASONING) + "},{\"type\":\"tool_call\",\"id\":\"call-1\",\"name\":"
                + "\"search_code\",\"arguments\":" + ARGUMENTS + "}]}";
        String answer = "{\"role\":\"assistant\",\"parts\":[{\"type\":\"text\",\"content\":"
                + quoted(ANSWER) + "}]}";
        for (int i = 0; i < CONVERSATIONS; i++) {
            ByteString trace = id(16);
            ByteString root = id(8);
            scope.addSpans(span(trace, root, null, "invoke_agent csv-fixer", t0, t0 + 60_000_000,
                    "gen_ai.operation.name", "invoke_agent", "gen_ai.conversation.id",
                    i == CONVERSATIONS - 1 ? lastConversation : "bench-" + UUID.randomUUID(),
                    "gen_ai.agent.name", "csv-fixer"));
            scope.addSpans(span(trace, id(8), root, "chat gpt-5", t0 + 1_000_000, t0 + 21_000_000,
                    "gen_ai.operation.name", "chat", "gen_ai.request.model", "gpt-5",
                    "gen_ai.input.messages", "[" + user + "]", "gen_ai.output.messages", "[" + call + "]"));
            scope.addSpans(span(trace, id(8), root, "execute_tool search_code", t0 + 22_000_000, t0 + 30_000_000,
                    "gen_ai.operation.name", "execute_tool", "gen_ai.tool.name", "search_code",
                    "gen_ai.tool.call.id", "call-1", "gen_ai.tool.call.result", RESULT));
            scope.addSpans(span(trace, id(8), root, "chat gpt-5", t0 + 31_000_000, t0 + 59_000_000,
                    "gen_ai.operation.name", "chat", "gen_ai.request.model", "gpt-5",
                    "gen_ai.input.messages", "[" + user + "," + call + "]",
                    "gen_ai.output.messages", "[" + answer + "]"));
        }
        ExportTraceServiceRequest request = ExportTraceServiceRequest.newBuilder().addResourceSpans(ResourceSpans
                .newBuilder().setResource(Resource.newBuilder().addAttributes(attribute("service.name", "csv-fixer")))
                .addScopeSpans(scope)).build();
        HttpResponse<byte[]> response = send(HttpRequest.newBuilder(URI.create(ingest + "/otlp/v1/traces"))
                .header("Content-Type", "application/x-protobuf").header("Content-Encoding", "gzip")
                .POST(HttpRequest.BodyPublishers.ofByteArray(gzip(request.toByteArray()))),
                HttpResponse.BodyHandlers.ofByteArray());
        try {
            ExportTraceServiceResponse answered = ExportTraceServiceResponse.parseFrom(response.body());
            if (answered.getPartialSuccess().getRejectedSpans() > 0) {
                throw new IllegalStateException("spans rejected: " + answered.getPartialSuccess().getErrorMessage());
            }
        } catch (com.google.protobuf.InvalidProtocolBufferException e) {
            throw new IllegalStateException(e);
        }
        return 4 * CONVERSATIONS;
    }

    private <T> HttpResponse<T> send(HttpRequest.Builder request, HttpResponse.BodyHandler<T> handler) {
        try {
            HttpResponse<T> response = http.send(request.header("Authorization", TestTenants.TENANT_A.bearer())
                    .build(), handler);
            if (response.statusCode() != 200) {
                Object body = response.body() instanceof byte[] bytes ? new String(bytes) : response.body();
                throw new IllegalStateException("ingest answered " + response.statusCode() + ": " + body);
            }
            return response;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static Span span(ByteString trace, ByteString id, ByteString parent, String name, long start, long end,
            String... attributes) {
        Span.Builder span = Span.newBuilder().setTraceId(trace).setSpanId(id).setName(name)
                .setKind(Span.SpanKind.SPAN_KIND_CLIENT).setStartTimeUnixNano(start).setEndTimeUnixNano(end);
        if (parent != null) {
            span.setParentSpanId(parent);
        }
        for (int i = 0; i < attributes.length; i += 2) {
            span.addAttributes(attribute(attributes[i], attributes[i + 1]));
        }
        return span.build();
    }

    private static KeyValue attribute(String key, String value) {
        return KeyValue.newBuilder().setKey(key).setValue(AnyValue.newBuilder().setStringValue(value)).build();
    }

    /** {@code text} as a JSON string. */
    private static String quoted(String text) {
        return com.fasterxml.jackson.databind.node.TextNode.valueOf(text).toString();
    }

    private static ByteString id(int bytes) {
        byte[] id = new byte[bytes];
        ThreadLocalRandom.current().nextBytes(id);
        id[0] |= 1;
        return ByteString.copyFrom(id);
    }

    private static byte[] gzip(byte[] bytes) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(bytes.length / 4);
        try (GZIPOutputStream zip = new GZIPOutputStream(out)) {
            zip.write(bytes);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return out.toByteArray();
    }
}
