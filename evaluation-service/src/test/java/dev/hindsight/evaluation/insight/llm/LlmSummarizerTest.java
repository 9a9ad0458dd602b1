package dev.hindsight.evaluation.insight.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hindsight.evaluation.insight.llm.ChatCompletionsClient.CompletionFailed;
import dev.hindsight.evaluation.summary.SessionDigest;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link LlmSummarizer} against a real local chat-completions server: the input it sends, the summary it keeps. */
class LlmSummarizerTest {

    private static final Duration WAIT = Duration.ofSeconds(5);

    private static ChatServer server;

    private final LlmSummarizer summarizer = new LlmSummarizer(server.client());

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

    private String summarizeMessage(String content) {
        return summarizer.summarizeMessage(content).await().atMost(WAIT);
    }

    @Test
    void identifiesItselfByTheModel() {
        assertThat(summarizer.id()).isEqualTo("openai:" + ChatServer.MODEL);
    }

    @Test
    void sendsTheMessageAsTheUserMessageAndAsksForPlainText() {
        String content = "I will sell 10 NVDA because the stop at 118 was hit.\nNext I check the book.";

        summarizeMessage(content);

        ChatServer.Request request = server.onlyRequest();
        assertThat(request.userMessage()).isEqualTo(content);
        assertThat(request.systemMessage()).contains("decision").contains("reason");
        assertThat(request.json().path("model").asText()).isEqualTo(ChatServer.MODEL);
        assertThat(request.json().has("response_format")).isFalse();
    }

    @Test
    void clipsALongMessageToTheInputLimit() {
        String content = "x".repeat(LlmSummarizer.MAX_INPUT) + "TAIL";

        summarizeMessage(content);

        assertThat(server.onlyRequest().userMessage()).isEqualTo("x".repeat(LlmSummarizer.MAX_INPUT));
    }

    @Test
    void returnsTheModelsAnswer() {
        server.answerContent("Sold 10 NVDA because the stop was hit.");

        assertThat(summarizeMessage("anything")).isEqualTo("Sold 10 NVDA because the stop was hit.");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "  Sold NVDA because the stop was hit.\n",
        "\"Sold NVDA because the stop was hit.\"",
        "\n \" Sold NVDA because the stop was hit. \" \n"
    })
    void trimsQuotesAndWhitespaceFromTheAnswer(String answer) {
        server.answerContent(answer);

        assertThat(summarizeMessage("anything")).isEqualTo("Sold NVDA because the stop was hit.");
    }

    @Test
    void keepsQuotesInsideTheAnswer() {
        server.answerContent("Chose \"retry\" because the API said \"busy\".");

        assertThat(summarizeMessage("anything")).isEqualTo("Chose \"retry\" because the API said \"busy\".");
    }

    @Test
    void capsTheSummaryLength() {
        server.answerContent("word ".repeat(400));

        String summary = summarizeMessage("anything");

        assertThat(summary).hasSize(LlmSummarizer.MAX_SUMMARY).endsWith("…").startsWith("word word");
    }

    @Test
    void keepsASummaryOfExactlyTheMaximumLength() {
        String answer = "y".repeat(LlmSummarizer.MAX_SUMMARY);
        server.answerContent(answer);

        assertThat(summarizeMessage("anything")).isEqualTo(answer);
    }

    @ParameterizedTest
    @ValueSource(strings = {"\"\"", "\"   \"", " \" \n \" "})
    void refusesAnAnswerThatIsEmptyOnceTrimmed(String answer) {
        server.answerContent(answer);

        assertThatThrownBy(() -> summarizeMessage("anything"))
                .isInstanceOf(CompletionFailed.class)
                .hasMessageContaining("empty summary");
    }

    @Test
    void passesTheClientsFailureOn() {
        server.answer(503, "overloaded");

        assertThatThrownBy(() -> summarizeMessage("anything"))
                .isInstanceOfSatisfying(CompletionFailed.class, e -> assertThat(e.status()).isEqualTo(503))
                .hasMessageContaining("overloaded");
    }

    @Test
    void sessionSummaryInputHoldsTitleActionsOutcomeAndMessagesInThatOrder() {
        SessionDigest digest = new SessionDigest("trading", "gpt-5 on 2025-10-02",
                List.of("I buy NVDA because earnings beat.", "I sell half to lock the gain."),
                List.of("buy 10 NVDA", "sell 5 NVDA"), "success", null);
        server.answerContent("Bought then trimmed NVDA on earnings.");

        String summary = summarizer.summarizeSession(digest).await().atMost(WAIT);

        assertThat(summary).isEqualTo("Bought then trimmed NVDA on earnings.");
        ChatServer.Request request = server.onlyRequest();
        assertThat(request.userMessage()).containsSubsequence(
                "gpt-5 on 2025-10-02",
                "buy 10 NVDA; sell 5 NVDA",
                "success",
                "I buy NVDA because earnings beat.",
                "I sell half to lock the gain.");
        assertThat(request.systemMessage()).contains("session");
        assertThat(request.json().has("response_format")).isFalse();
    }

    @Test
    void sessionSummaryInputIncludesTheProducersNoteAndLeavesOutWhatIsMissing() {
        SessionDigest digest = new SessionDigest("chat", null, List.of("Only message."), List.of(), null,
                "user asked for a refund");

        summarizer.summarizeSession(digest).await().atMost(WAIT);

        String input = server.onlyRequest().userMessage();
        assertThat(input).contains("user asked for a refund").contains("Only message.");
        assertThat(input).doesNotContain("Session:").doesNotContain("Actions:").doesNotContain("Outcome:")
                .doesNotContain("null");
    }

    @Test
    void clipsALongSessionToTheInputLimit() {
        SessionDigest digest = new SessionDigest("chat", "long one", List.of("z".repeat(LlmSummarizer.MAX_INPUT)),
                List.of(), null, null);

        summarizer.summarizeSession(digest).await().atMost(WAIT);

        String input = server.onlyRequest().userMessage();
        assertThat(input).hasSize(LlmSummarizer.MAX_INPUT).startsWith("Session: long one");
    }
}
