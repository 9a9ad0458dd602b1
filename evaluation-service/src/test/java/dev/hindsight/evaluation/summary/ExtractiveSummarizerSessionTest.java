package dev.hindsight.evaluation.summary;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ExtractiveSummarizerSessionTest {

    private static final Path DEMO = Path.of("..", "deploy", "local", "demo", "000-trading-gpt5-2025-10-02");

    private static final List<String> MESSAGES = List.of(
            "I will look at yesterday's positions first.",
            "Hello again. Chip demand stays strong because cloud capex is rising. I bought 10 NVDA.");

    private final ExtractiveSummarizer summarizer = new ExtractiveSummarizer();

    @Test
    void tradingSessionWithActionsDecisionAndOutcome() {
        SessionDigest digest = new SessionDigest("trading", "gpt-5 on 2025-10-02", MESSAGES,
                List.of("buy 10 NVDA", "sell 5 AAPL", "hold cash"), "success", null);

        assertThat(summarizer.summarizeSession(digest)).isEqualTo(
                "gpt-5 on 2025-10-02 traded 3 times: buy 10 NVDA, sell 5 AAPL, hold cash. I bought 10 NVDA. "
                        + "Outcome: success.");
    }

    @Test
    void moreThanThreeActionsAreCappedWithACount() {
        SessionDigest digest = new SessionDigest("trading", "gpt-5 on 2025-10-02", List.of(),
                List.of("buy 10 NVDA", "buy 6 GOOGL", "buy 6 AMD", "buy 1 CRWD", "sell 2 TSLA"), null, null);

        assertThat(summarizer.summarizeSession(digest))
                .isEqualTo("gpt-5 on 2025-10-02 traded 5 times: buy 10 NVDA, buy 6 GOOGL, buy 6 AMD, +2 more.");
    }

    @Test
    void oneTradeIsTradedOnce() {
        SessionDigest digest = new SessionDigest("trading", "claude on 2025-10-03", List.of(),
                List.of(" buy 10 NVDA. "), "failure", null);

        assertThat(summarizer.summarizeSession(digest))
                .isEqualTo("claude on 2025-10-03 traded once: buy 10 NVDA. Outcome: failure.");
    }

    @Test
    void theProducersHintWinsTheSecondSentence() {
        SessionDigest digest = new SessionDigest("trading", "gpt-5 on 2025-10-02", MESSAGES,
                List.of("buy 10 NVDA"), "success", "  Bet on AI chips  while keeping half in cash ");

        assertThat(summarizer.summarizeSession(digest)).isEqualTo(
                "gpt-5 on 2025-10-02 traded once: buy 10 NVDA. Bet on AI chips while keeping half in cash. "
                        + "Outcome: success.");
    }

    @Test
    void aBlankHintFallsBackToTheExtractedDecision() {
        SessionDigest digest = new SessionDigest("trading", "gpt-5 on 2025-10-02", MESSAGES, List.of(), null, " ");

        assertThat(summarizer.summarizeSession(digest)).isEqualTo(
                "gpt-5 on 2025-10-02 made no recorded trades over 2 assistant messages. I bought 10 NVDA.");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', nullValues = "NULL", value = {
            "success | ' Outcome: success.'",
            "FAILURE | ' Outcome: failure.'",
            "unknown | ''",
            "'  ' | ''",
            "NULL | ''"})
    void theOutcomeIsStatedOnlyWhenKnown(String outcome, String suffix) {
        SessionDigest digest = new SessionDigest("trading", "m on d", List.of(), List.of("hold cash"), outcome, null);

        assertThat(summarizer.summarizeSession(digest)).isEqualTo("m on d traded once: hold cash." + suffix);
    }

    @Test
    void chatSessionNamesTheChatAndKeepsItsLeadAnswer() {
        SessionDigest digest = new SessionDigest("chat", "Latest Python version",
                List.of("The latest stable release is Python 3.13.",
                        "Python 3.13 adds an experimental free-threaded build and a new interactive interpreter."),
                List.of(), "unknown", null);

        assertThat(summarizer.summarizeSession(digest)).isEqualTo("The chat \"Latest Python version\" had 2 assistant "
                + "messages. The latest stable release is Python 3.13.");
    }

    @Test
    void debugSessionNamesTheTaskAndItsActions() {
        SessionDigest digest = new SessionDigest("debug",
                "CSV export drops the last row when the file has no trailing newline.",
                List.of("Hypothesis: the split drops the last element.",
                        "I fixed the split because it dropped the last row."),
                List.of("edit export/csv.py", "run pytest"), "success", null);

        assertThat(summarizer.summarizeSession(digest)).isEqualTo(
                "Debugging \"CSV export drops the last row when the file has no trailing newline\" took 2 actions: "
                        + "edit export/csv.py, run pytest. I fixed the split because it dropped the last row. "
                        + "Outcome: success.");
    }

    @Test
    void withoutTitleKindOrMessagesItStillSaysWhatHappened() {
        assertThat(summarizer.summarizeSession(new SessionDigest(null, null, null, null, null, null)))
                .isEqualTo("The session had no assistant messages.");
        assertThat(summarizer.summarizeSession(new SessionDigest("trading", " ", List.of(), List.of(), null, null)))
                .isEqualTo("The trading session made no recorded trades.");
        assertThat(summarizer.summarizeSession(new SessionDigest("chat", null, List.of("One."), List.of(), null, null)))
                .isEqualTo("The chat had 1 assistant message. One.");
        assertThat(summarizer.summarizeSession(new SessionDigest("debug", null, List.of(), List.of("edit a.py"),
                null, null))).isEqualTo("The debugging session took 1 action: edit a.py.");
    }

    @Test
    void aVeryLongTitleIsShortened() {
        String title = "word ".repeat(60);
        String summary = summarizer.summarizeSession(new SessionDigest("trading", title, List.of(), List.of(),
                null, null));

        assertThat(summary).startsWith("word word").contains("… made no recorded trades.");
        assertThat(summary.indexOf('…')).isLessThanOrEqualTo(120);
    }

    @Test
    void theSecondSentenceIsCappedLikeAMessageSummary() {
        String hint = "Because " + "the trend held ".repeat(40);
        String summary = summarizer.summarizeSession(new SessionDigest("trading", "m on d", List.of(),
                List.of("hold cash"), null, hint));

        String second = summary.substring("m on d traded once: hold cash. ".length());
        assertThat(second).hasSizeLessThanOrEqualTo(ExtractiveSummarizer.MAX_CHARS).endsWith("…");
    }

    @Test
    void sameDigestSameSummary() {
        SessionDigest digest = new SessionDigest("trading", "gpt-5 on 2025-10-02", MESSAGES,
                List.of("buy 10 NVDA"), "success", null);

        assertThat(summarizer.summarizeSession(digest)).isEqualTo(new ExtractiveSummarizer().summarizeSession(digest));
    }

    @Test
    void demoTradingSessionSummary() throws IOException {
        List<String> actions = new ArrayList<>();
        for (JsonNode p : new ObjectMapper().readTree(DEMO.resolve("positions.json").toFile()).path("positions")) {
            actions.add(p.path("action_type").asText() + " " + p.path("amount").asText() + " "
                    + p.path("symbol").asText());
        }
        String outcome = new ObjectMapper().readTree(DEMO.resolve("complete.json").toFile()).path("outcome").asText();
        SessionDigest digest = new SessionDigest("trading", "gpt-5 on 2025-10-02",
                ExtractiveSummarizerMessageTest.demoAssistantMessages(), actions, outcome, null);

        assertThat(summarizer.summarizeSession(digest)).isEqualTo(
                "gpt-5 on 2025-10-02 traded 4 times: buy 10 NVDA, buy 6 GOOGL, buy 6 AMD, +1 more. "
                        + "Bought NVDA (10), GOOGL (6), AMD (6) and CRWD (1); kept about 51% in cash for volatility. "
                        + "Outcome: success.");
    }
}
