package dev.hindsight.evaluation.insight.llm;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.hindsight.evaluation.config.EvaluationConfig;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A real chat-completions endpoint on 127.0.0.1 for tests: records every request and answers with a programmable
 * status and body, or holds the answer back until released (a server that never answers).
 */
final class ChatServer implements AutoCloseable {

    static final ObjectMapper JSON = new ObjectMapper();
    static final String MODEL = "test-model";

    /** {@link EvaluationConfig.Llm} without a config source. */
    record Settings(String baseUrl, String model, Optional<String> apiKey, Duration timeout)
            implements EvaluationConfig.Llm {
    }

    /** One request as the server received it; header names are case-insensitive. */
    record Request(String method, String path, Map<String, List<String>> headers, String body) {

        /** The header's first value, or null. */
        String header(String name) {
            List<String> values = headers.get(name);
            return values == null || values.isEmpty() ? null : values.get(0);
        }

        JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (IOException e) {
                throw new UncheckedIOException("request body is not JSON: " + body, e);
            }
        }

        String systemMessage() {
            return json().path("messages").path(0).path("content").asText();
        }

        String userMessage() {
            return json().path("messages").path(1).path("content").asText();
        }
    }

    private record Answer(int status, String body) {
    }

    private final HttpServer server;
    private final ExecutorService executor = Executors.newCachedThreadPool(r -> {
        Thread thread = new Thread(r, "chat-server");
        thread.setDaemon(true);
        return thread;
    });
    private final List<Request> requests = new CopyOnWriteArrayList<>();
    private volatile Answer answer;
    private volatile CountDownLatch hold;

    private ChatServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        // Handlers run on their own threads so one held answer does not block the others.
        server.setExecutor(executor);
        server.createContext("/", this::handle);
        reset();
    }

    static ChatServer start() throws IOException {
        ChatServer chat = new ChatServer();
        chat.server.start();
        return chat;
    }

    int port() {
        return server.getAddress().getPort();
    }

    /** An OpenAI-style base URL ending in {@code /v1}, without a trailing slash. */
    String baseUrl() {
        return "http://127.0.0.1:" + port() + "/v1";
    }

    /** A client for {@link #MODEL} at {@link #baseUrl()}, without a key, with a generous timeout. */
    ChatCompletionsClient client() {
        return new ChatCompletionsClient(new Settings(baseUrl(), MODEL, Optional.empty(), Duration.ofSeconds(5)));
    }

    /** Answers every following request with this status and body. */
    void answer(int status, String body) {
        answer = new Answer(status, body);
    }

    /** Answers every following request with a 200 completion whose first choice says {@code content}. */
    void answerContent(String content) {
        answer(200, completion(content));
    }

    /** Holds every following answer back until {@link #reset()} or {@link #close()}. */
    void hang() {
        hold = new CountDownLatch(1);
    }

    /** Releases held answers, forgets recorded requests and goes back to answering a plain completion. */
    void reset() {
        CountDownLatch held = hold;
        hold = null;
        if (held != null) {
            held.countDown();
        }
        requests.clear();
        answerContent("ok");
    }

    List<Request> requests() {
        return List.copyOf(requests);
    }

    /** The single request received so far; fails when there were none or several. */
    Request onlyRequest() {
        List<Request> received = requests();
        if (received.size() != 1) {
            throw new AssertionError("expected exactly one request, got " + received.size() + ": " + received);
        }
        return received.get(0);
    }

    /** A chat-completions response body as OpenAI sends it, with {@code content} as the first choice's message. */
    static String completion(String content) {
        ObjectNode root = JSON.createObjectNode();
        root.put("id", "chatcmpl-test").put("object", "chat.completion").put("model", MODEL);
        ObjectNode choice = root.putArray("choices").addObject();
        choice.put("index", 0).put("finish_reason", "stop");
        choice.putObject("message").put("role", "assistant").put("content", content);
        root.putObject("usage").put("prompt_tokens", 1).put("completion_tokens", 1).put("total_tokens", 2);
        return root.toString();
    }

    private void handle(HttpExchange exchange) {
        try {
            byte[] in = exchange.getRequestBody().readAllBytes();
            Map<String, List<String>> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
            exchange.getRequestHeaders().forEach((name, values) -> headers.put(name, List.copyOf(values)));
            requests.add(new Request(exchange.getRequestMethod(), exchange.getRequestURI().getPath(),
                    Collections.unmodifiableMap(headers), new String(in, UTF_8)));
            CountDownLatch held = hold;
            if (held != null && !held.await(30, TimeUnit.SECONDS)) {
                return; // never released: the test is long gone
            }
            Answer reply = answer;
            byte[] out = reply.body().getBytes(UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(reply.status(), out.length == 0 ? -1 : out.length);
            if (out.length > 0) {
                try (OutputStream body = exchange.getResponseBody()) {
                    body.write(out);
                }
            }
        } catch (IOException e) {
            // The client hung up (e.g. it timed out while the answer was held): nobody to answer.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            exchange.close();
        }
    }

    @Override
    public void close() {
        reset();
        server.stop(0);
        executor.shutdownNow();
    }
}
