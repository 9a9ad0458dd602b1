package dev.hindsight.evaluation.insight.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hindsight.evaluation.config.EvaluationConfig;
import dev.hindsight.platform.json.StorableText;
import io.smallrye.mutiny.Uni;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * Calls any OpenAI-compatible {@code POST /chat/completions} endpoint (OpenAI, Azure-style gateways, vLLM, Ollama,
 * llama.cpp's server) without blocking: the JDK client's asynchronous send, completed on its own threads. Base URL,
 * model, key and timeout come from configuration. A non-2xx answer or an answer without content is a failure with
 * the status and the start of the body; retrying is the caller's business.
 */
public final class ChatCompletionsClient {

    private static final int BODY_EXCERPT = 300;

    private final HttpClient http;
    private final URI endpoint;
    private final String model;
    private final String apiKey;
    private final Duration timeout;
    private final ObjectMapper json = new ObjectMapper();

    public ChatCompletionsClient(EvaluationConfig.Llm config) {
        String base = config.baseUrl().endsWith("/") ? config.baseUrl() : config.baseUrl() + "/";
        this.endpoint = URI.create(base).resolve("chat/completions");
        this.model = config.model();
        this.apiKey = config.apiKey().filter(k -> !k.isBlank()).orElse(null);
        this.timeout = config.timeout();
        this.http = HttpClient.newBuilder().connectTimeout(timeout).build();
    }

    /** The model named in requests, e.g. for a summary's {@code summarizer} field. */
    public String model() {
        return model;
    }

    /** Why a call failed, with the HTTP status when there was one (0 otherwise). */
    public static final class CompletionFailed extends RuntimeException {
        private final int status;

        public CompletionFailed(int status, String message) {
            super(message);
            this.status = status;
        }

        public int status() {
            return status;
        }
    }

    /**
     * One completion at temperature 0.
     *
     * @param jsonOutput ask for a JSON object ({@code response_format}); the caller still validates it
     * @return the first choice's message content
     */
    public Uni<String> complete(String system, String user, boolean jsonOutput) {
        ObjectNode body = json.createObjectNode();
        body.put("model", model);
        body.put("temperature", 0);
        var messages = body.putArray("messages");
        messages.addObject().put("role", "system").put("content", system);
        messages.addObject().put("role", "user").put("content", user);
        if (jsonOutput) {
            body.putObject("response_format").put("type", "json_object");
        }
        HttpRequest.Builder request = HttpRequest.newBuilder(endpoint)
                .timeout(timeout)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString()));
        if (apiKey != null) {
            request.header("Authorization", "Bearer " + apiKey);
        }
        return Uni.createFrom().completionStage(() -> http.sendAsync(request.build(),
                        HttpResponse.BodyHandlers.ofString()))
                .map(this::content);
    }

    private String content(HttpResponse<String> response) {
        if (response.statusCode() / 100 != 2) {
            throw new CompletionFailed(response.statusCode(), "chat completions answered " + response.statusCode()
                    + ": " + excerpt(response.body()));
        }
        try {
            JsonNode content = json.readTree(response.body()).path("choices").path(0).path("message").path("content");
            if (!content.isTextual() || content.asText().isBlank()) {
                throw new CompletionFailed(response.statusCode(), "chat completions answered without content: "
                        + excerpt(response.body()));
            }
            // A model's answer is not the producer's to correct, so it is not refused: what no store can hold (NUL,
            // lone surrogates) becomes U+FFFD, and the summary or verdict built from it can always be stored.
            return StorableText.repaired(content.asText());
        } catch (IOException e) {
            throw new CompletionFailed(response.statusCode(), "chat completions answered unreadable JSON: "
                    + excerpt(response.body()));
        }
    }

    private static String excerpt(String body) {
        return body == null ? "" : body.length() <= BODY_EXCERPT ? body : body.substring(0, BODY_EXCERPT) + "…";
    }
}
