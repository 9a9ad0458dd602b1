package dev.hindsight.evaluation.insight.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hindsight.evaluation.insight.llm.ChatCompletionsClient.CompletionFailed;
import dev.hindsight.evaluation.insight.llm.ChatServer.Settings;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link ChatCompletionsClient} against a real local chat-completions server: what it sends, what it accepts. */
class ChatCompletionsClientTest {

    private static final Duration WAIT = Duration.ofSeconds(5);

    private static ChatServer server;

    @BeforeAll
    static void startServer() throws IOException {
        server = ChatServer.start();
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }

    @AfterEach
    void resetServer() {
        server.reset();
    }

    private static ChatCompletionsClient client(String baseUrl, Optional<String> apiKey, Duration timeout) {
        return new ChatCompletionsClient(new Settings(baseUrl, "gpt-test", apiKey, timeout));
    }

    private static ChatCompletionsClient client() {
        return client(server.baseUrl(), Optional.empty(), WAIT);
    }

    private static String complete(ChatCompletionsClient client) {
        return client.complete("be brief", "hello", false).await().atMost(WAIT);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "/"})
    void postsToChatCompletionsUnderTheBaseUrlWithOrWithoutTrailingSlash(String trailing) {
        complete(client(server.baseUrl() + trailing, Optional.empty(), WAIT));

        ChatServer.Request request = server.onlyRequest();
        assertThat(request.method()).isEqualTo("POST");
        assertThat(request.path()).isEqualTo("/v1/chat/completions");
        assertThat(request.header("Content-Type")).isEqualTo("application/json");
    }

    @Test
    void postsToChatCompletionsAtTheRootWhenTheBaseUrlHasNoPath() {
        complete(client("http://127.0.0.1:" + server.port(), Optional.empty(), WAIT));

        assertThat(server.onlyRequest().path()).isEqualTo("/chat/completions");
    }

    @Test
    void sendsModelTemperatureZeroAndSystemThenUserMessage() {
        client().complete("You summarise.", "The agent chose B.", false).await().atMost(WAIT);

        JsonNode body = server.onlyRequest().json();
        assertThat(body.path("model").asText()).isEqualTo("gpt-test");
        assertThat(body.path("temperature").isNumber()).isTrue();
        assertThat(body.path("temperature").asDouble()).isZero();
        JsonNode messages = body.path("messages");
        assertThat(messages).hasSize(2);
        assertThat(messages.path(0).path("role").asText()).isEqualTo("system");
        assertThat(messages.path(0).path("content").asText()).isEqualTo("You summarise.");
        assertThat(messages.path(1).path("role").asText()).isEqualTo("user");
        assertThat(messages.path(1).path("content").asText()).isEqualTo("The agent chose B.");
    }

    @Test
    void asksForAJsonObjectOnlyWhenJsonOutputIsWanted() {
        ChatCompletionsClient client = client();

        client.complete("s", "u", false).await().atMost(WAIT);
        assertThat(server.onlyRequest().json().has("response_format")).isFalse();

        server.reset();
        client.complete("s", "u", true).await().atMost(WAIT);
        assertThat(server.onlyRequest().json().path("response_format").path("type").asText())
                .isEqualTo("json_object");
    }

    @Test
    void sendsTheKeyAsBearerTokenWhenOneIsConfigured() {
        complete(client(server.baseUrl(), Optional.of("sk-secret"), WAIT));

        assertThat(server.onlyRequest().header("Authorization")).isEqualTo("Bearer sk-secret");
    }

    @ParameterizedTest
    @ValueSource(strings = {"none", "", "   "})
    void sendsNoAuthorizationWithoutAKey(String key) {
        Optional<String> apiKey = key.equals("none") ? Optional.empty() : Optional.of(key);

        complete(client(server.baseUrl(), apiKey, WAIT));

        assertThat(server.onlyRequest().headers()).doesNotContainKey("Authorization");
    }

    @Test
    void returnsTheFirstChoicesContent() {
        server.answerContent("The agent sold because the stop was hit.");

        assertThat(complete(client())).isEqualTo("The agent sold because the stop was hit.");
    }

    @Test
    void anAnswerNoStoreCanHoldIsRepairedNotRefused() {
        // Escaped in the JSON text, as a model's API would send them.
        server.answer(200, """
                {"choices": [{"message": {"role": "assistant",
                  "content": "Sold\\u0000 at the stop \\ud800\\ud83d\\ude00"}}]}""");

        assertThat(complete(client())).isEqualTo("Sold\uFFFD at the stop \uFFFD\uD83D\uDE00");
    }

    @Test
    void namesItsModel() {
        assertThat(client().model()).isEqualTo("gpt-test");
    }

    @ParameterizedTest
    @ValueSource(ints = {429, 500, 401})
    void failsWithTheStatusAndTheBodyOnANon2xxAnswer(int status) {
        server.answer(status, "{\"error\":{\"message\":\"nope " + status + "\"}}");

        assertThatThrownBy(() -> complete(client()))
                .isInstanceOfSatisfying(CompletionFailed.class, e -> assertThat(e.status()).isEqualTo(status))
                .hasMessageContaining(String.valueOf(status))
                .hasMessageContaining("nope " + status);
    }

    @Test
    void quotesOnlyTheStartOfALongErrorBody() {
        String body = "a".repeat(300) + "b".repeat(700);
        server.answer(500, body);

        assertThatThrownBy(() -> complete(client()))
                .isInstanceOf(CompletionFailed.class)
                .hasMessageContaining("a".repeat(300) + "…")
                .hasMessageNotContaining("ab");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "{}",
        "{\"choices\":[]}",
        "{\"choices\":[{\"message\":{\"role\":\"assistant\"}}]}",
        "{\"choices\":[{\"message\":{\"role\":\"assistant\",\"content\":null}}]}",
        "{\"choices\":[{\"message\":{\"role\":\"assistant\",\"content\":\"  \\n\"}}]}",
        "{\"choices\":[{\"message\":{\"role\":\"assistant\",\"content\":42}}]}"
    })
    void failsOnA200WithoutContent(String body) {
        server.answer(200, body);

        assertThatThrownBy(() -> complete(client()))
                .isInstanceOfSatisfying(CompletionFailed.class, e -> assertThat(e.status()).isEqualTo(200))
                .hasMessageContaining("without content");
    }

    @ParameterizedTest
    @ValueSource(strings = {"<html>Bad gateway</html>", "{\"choices\":[{\"message\":"})
    void failsOnA200WithUnreadableJson(String body) {
        server.answer(200, body);

        assertThatThrownBy(() -> complete(client()))
                .isInstanceOfSatisfying(CompletionFailed.class, e -> assertThat(e.status()).isEqualTo(200))
                .hasMessageContaining("unreadable JSON")
                .hasMessageContaining(body);
    }

    @Test
    void failsByTheConfiguredTimeoutWhenTheServerNeverAnswers() {
        server.hang(); // released by resetServer()
        ChatCompletionsClient client = client(server.baseUrl(), Optional.empty(), Duration.ofMillis(300));

        // The client's own timeout fires well before the 5 s wait, which would fail with Mutiny's TimeoutException.
        assertThatThrownBy(() -> complete(client))
                .isInstanceOf(CompletionException.class)
                .hasCauseInstanceOf(HttpTimeoutException.class);
        assertThat(server.requests()).hasSize(1);
    }

    @Test
    void failsWhenNothingListens() throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
        ChatCompletionsClient client = client("http://127.0.0.1:" + closedPort + "/v1", Optional.empty(), WAIT);

        assertThatThrownBy(() -> complete(client))
                .isInstanceOf(CompletionException.class)
                .hasCauseInstanceOf(ConnectException.class);
    }
}
