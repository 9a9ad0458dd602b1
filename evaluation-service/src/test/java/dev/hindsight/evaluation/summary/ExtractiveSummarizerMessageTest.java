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
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class ExtractiveSummarizerMessageTest {

    static final Path DEMO_MESSAGES =
            Path.of("..", "deploy", "local", "demo", "000-trading-gpt5-2025-10-02", "messages.json");

    private final ExtractiveSummarizer summarizer = new ExtractiveSummarizer();

    @Test
    void identifiesItselfAsExtractiveV1() {
        assertThat(summarizer.id()).isEqualTo("extractive.v1");
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {"  ", "\n\t\n", "```\n```", "***"})
    void emptyOrBlankContentHasAnEmptySummary(String content) {
        assertThat(summarizer.summarizeMessage(content)).isEmpty();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "'  I will hold cash today.  ' | I will hold cash today.",
            "Hold | Hold",
            "'The latest stable release is Python 3.13.' | The latest stable release is Python 3.13.",
            "'## Buy NVDA' | Buy NVDA",
            "'thanks!' | thanks!"})
    void oneShortSentenceIsItselfTrimmed(String content, String expected) {
        assertThat(summarizer.summarizeMessage(content)).isEqualTo(expected);
    }

    @Test
    void decisionAndReasonAreChosenOverChitChat() {
        String content = "Hello! Thanks for the question. Markets were mixed today. I will buy 10 NVDA. "
                + "I am doing this because data-center demand keeps growing. Let me know if you need anything else.";

        assertThat(summarizer.summarizeMessage(content))
                .isEqualTo("I will buy 10 NVDA. I am doing this because data-center demand keeps growing.");
    }

    @Test
    void theReasonKeepsItsPlaceWhenItComesFirst() {
        String content = "Because earnings beat expectations, momentum looks durable. The weather was nice. "
                + "So I bought 5 AAPL.";

        assertThat(summarizer.summarizeMessage(content))
                .isEqualTo("Because earnings beat expectations, momentum looks durable. So I bought 5 AAPL.");
    }

    @Test
    void aDecisionThatGivesItsOwnReasonStandsAlone() {
        String content = "I reviewed the tape this morning. I sold 5 TSLA because the guidance was cut. "
                + "It was a long day.";

        assertThat(summarizer.summarizeMessage(content)).isEqualTo("I sold 5 TSLA because the guidance was cut.");
    }

    @Test
    void theConclusionWinsATieWithTheEarlierPlan() {
        String content = "I will buy NVDA. After checking the numbers I will sell AAPL.";

        assertThat(summarizer.summarizeMessage(content)).isEqualTo("After checking the numbers I will sell AAPL.");
    }

    @Test
    void aTradeActionOutweighsAPlanToDecideLater() {
        String content = "I should decide later. We bought 10 NVDA and kept 51% in cash.";

        assertThat(summarizer.summarizeMessage(content)).isEqualTo("We bought 10 NVDA and kept 51% in cash.");
    }

    @Test
    void debuggingDecisionsAreDecisionsToo() {
        String content = "I looked at the parser. The test fails since the header row is counted. "
                + "I fixed the off-by-one in csv.py. Coffee next.";

        assertThat(summarizer.summarizeMessage(content))
                .isEqualTo("The test fails since the header row is counted. I fixed the off-by-one in csv.py.");
    }

    @Test
    void notTradingIsADecisionTooAndOneMarketWordIsNoReason() {
        String content = "Sure! Here's what I did:\n\n- Checked yesterday's positions\n- Pulled prices for NVDA, AMD\n"
                + "- No trades today: valuations are stretched and I prefer to wait for earnings next week.";

        assertThat(summarizer.summarizeMessage(content))
                .isEqualTo("No trades today: valuations are stretched and I prefer to wait for earnings next week.");
    }

    @Test
    void aCodeChangeIsTheDecisionOfADebuggingMessage() {
        String content = "The function returns None when the list is empty, e.g. in the first call. "
                + "I changed it to return an empty list instead so callers don't crash.";

        assertThat(summarizer.summarizeMessage(content))
                .isEqualTo("I changed it to return an empty list instead so callers don't crash.");
    }

    @Test
    void withoutAnyCueTheLeadSentenceIsKeptSkippingHeadingsAndGreetings() {
        String content = "Overview\n\nHi there! Python 3.13 adds a free-threaded build. It also has a new REPL.";

        assertThat(summarizer.summarizeMessage(content)).isEqualTo("Python 3.13 adds a free-threaded build.");
    }

    @Test
    void aDecisionCueInsideChitChatIsNoDecision() {
        String content = "The market closed flat. Let me know if I should buy more.";

        assertThat(summarizer.summarizeMessage(content)).isEqualTo("The market closed flat.");
    }

    @Test
    void bulletsWithoutPunctuationAreJoinedAsSentences() {
        String content = "Plan\n- Demand is strong after Q2 results\n- Buy 10 NVDA\n- Review tomorrow";

        assertThat(summarizer.summarizeMessage(content)).isEqualTo("Demand is strong after Q2 results. Buy 10 NVDA.");
    }

    @Test
    void markdownIsStrippedFromTheSummary() {
        String content = "## Decision\n\n**Buy** 10 `NVDA` because demand is *strong*.\n\n```json\n{\"x\": 1}\n```\n"
                + "- see [report](https://example.com)";

        assertThat(summarizer.summarizeMessage(content)).isEqualTo("Buy 10 NVDA because demand is strong.");
    }

    @Test
    void abbreviationsAndDecimalsDoNotCutTheSentence() {
        String content = "Prices were choppy. I will buy AI names, e.g. NVDA at 189.60, i.e. 3.5 percent below the "
                + "high, because demand is strong.";

        assertThat(summarizer.summarizeMessage(content)).isEqualTo("I will buy AI names, e.g. NVDA at 189.60, i.e. "
                + "3.5 percent below the high, because demand is strong.");
    }

    @Test
    void aLongSentenceIsCutAtAWordBoundaryWithAnEllipsis() {
        String sentence = "I will buy NVDA because " + "the data-center demand keeps growing quarter after quarter "
                .repeat(10) + "and that is that.";

        String summary = summarizer.summarizeMessage(sentence);

        assertThat(summary).hasSizeLessThanOrEqualTo(ExtractiveSummarizer.MAX_CHARS).endsWith("…");
        String kept = summary.substring(0, summary.length() - 1);
        assertThat(sentence).startsWith(kept);
        assertThat(Character.isWhitespace(sentence.charAt(kept.length()))).isTrue();
    }

    @Test
    void twoSentencesThatDoNotFitKeepOnlyTheDecision() {
        String reason = "Demand is strong because "
                + "hyperscalers continue raising capital spending budgets ".repeat(5)
                + "this year.";
        String content = reason + " I will buy 10 NVDA.";

        assertThat(reason.length() + " I will buy 10 NVDA.".length()).isGreaterThan(ExtractiveSummarizer.MAX_CHARS);
        assertThat(summarizer.summarizeMessage(content)).isEqualTo("I will buy 10 NVDA.");
    }

    @Test
    void summariesAreAtMostTheCapAndAtMostTwoSentencesForManyInputs() {
        List<String> inputs = List.of(
                "a ".repeat(500),
                "I will buy. ".repeat(100),
                "x".repeat(1000),
                "Because. ".repeat(60) + "So I sold everything because of the risk.",
                "🚀".repeat(400),
                "Buy NVDA because demand " + "🚀".repeat(300));
        for (String input : inputs) {
            String summary = summarizer.summarizeMessage(input);

            assertThat(summary).isNotEmpty().hasSizeLessThanOrEqualTo(ExtractiveSummarizer.MAX_CHARS);
            assertThat(Sentences.split(summary).size()).isBetween(1, 2);
            // A cut never splits a surrogate pair.
            assertThat(summary.codePoints().noneMatch(cp -> Character.isSurrogate((char) cp) && cp < 0x10000))
                    .isTrue();
        }
    }

    @Test
    void unicodeIsKeptIntact() {
        assertThat(summarizer.summarizeMessage("Wir kaufen 10 NVDA. Die Nachfrage in Zürich ist groß. Tschüß! 🚀"))
                .isEqualTo("Wir kaufen 10 NVDA.");
        assertThat(summarizer.summarizeMessage("I will buy 10 NVDA 🚀 because demand in Zürich is strong. Tschüß!"))
                .isEqualTo("I will buy 10 NVDA 🚀 because demand in Zürich is strong.");
        assertThat(summarizer.summarizeMessage("我们决定买入英伟达。原因是需求强劲。"))
                .isEqualTo("我们决定买入英伟达。");
    }

    @Test
    void sameContentSameSummary() {
        String content = "Markets were mixed. I will buy 10 NVDA because demand is strong. Let me know.";

        assertThat(summarizer.summarizeMessage(content))
                .isEqualTo(new ExtractiveSummarizer().summarizeMessage(content));
    }

    @Test
    void demoTradingMessageSummaryCarriesTheTradeDecisionAndItsReason() throws IOException {
        List<String> assistant = demoAssistantMessages();

        assertThat(summarizer.summarizeMessage(assistant.get(0)))
                .isEqualTo("I will read yesterday's positions and today's prices before deciding.");
        assertThat(summarizer.summarizeMessage(assistant.get(1)))
                .isEqualTo("AI infrastructure demand remains strong after Q2 results. "
                        + "Bought NVDA (10), GOOGL (6), AMD (6) and CRWD (1); kept about 51% in cash for volatility.");
    }

    /** The assistant messages of the shipped trading demo, in order. */
    static List<String> demoAssistantMessages() throws IOException {
        JsonNode root = new ObjectMapper().readTree(DEMO_MESSAGES.toFile());
        List<String> assistant = new ArrayList<>();
        for (JsonNode message : root.path("messages")) {
            if (message.path("role").asText().equals("assistant")) {
                assistant.add(message.path("content").asText());
            }
        }
        return assistant;
    }
}
