package dev.hindsight.evaluation.summary;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class SentencesTest {

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {"   ", "\n\n\t", "```\n```", "---"})
    void nothingToSayHasNoSentences(String text) {
        assertThat(Sentences.split(text)).isEmpty();
    }

    @Test
    void splitsOnSentenceEnds() {
        assertThat(Sentences.split("Markets were mixed. I bought NVDA! Was that wise? Yes."))
                .containsExactly("Markets were mixed.", "I bought NVDA!", "Was that wise?", "Yes.");
    }

    @Test
    void abbreviationsDoNotEndSentences() {
        assertThat(Sentences.split("Consider large caps, e.g. NVDA and AAPL, i.e. AI names. Then decide."))
                .containsExactly("Consider large caps, e.g. NVDA and AAPL, i.e. AI names.", "Then decide.");
        assertThat(Sentences.split("Dr. Smith met Mr. Jones vs. Apple Inc. in Jan. 2025. U.S. markets rallied."))
                .containsExactly("Dr. Smith met Mr. Jones vs. Apple Inc. in Jan. 2025.", "U.S. markets rallied.");
        assertThat(Sentences.split("J. P. Morgan reported. Shares rose."))
                .containsExactly("J. P. Morgan reported.", "Shares rose.");
    }

    @Test
    void decimalsAndThousandsDoNotEndSentences() {
        assertThat(Sentences.split("The stock rose 3.5 percent to 189.60 dollars. Cash is 10,000.00 now."))
                .containsExactly("The stock rose 3.5 percent to 189.60 dollars.", "Cash is 10,000.00 now.");
        assertThat(Sentences.split("Version 3.13.1 is out. Python 3.13 adds a REPL."))
                .containsExactly("Version 3.13.1 is out.", "Python 3.13 adds a REPL.");
    }

    @Test
    void aLowerCaseWordAfterAPeriodDoesNotStartASentence() {
        assertThat(Sentences.split("See section 2. and then decide."))
                .containsExactly("See section 2. and then decide.");
    }

    @Test
    void closingQuotesAndBracketsStayWithTheirSentence() {
        assertThat(Sentences.split("He said \"sell now.\" Then he left. (It was late.) Fine."))
                .containsExactly("He said \"sell now.\"", "Then he left.", "(It was late.)", "Fine.");
    }

    @Test
    void ellipsesEndSentencesBeforeACapital() {
        assertThat(Sentences.split("Wait... The price moved. Done…  Next step."))
                .containsExactly("Wait...", "The price moved.", "Done…", "Next step.");
    }

    @Test
    void eachBulletAndHeadingIsItsOwnSentence() {
        assertThat(Sentences.split("## Plan\n- Buy 10 NVDA\n* Sell 5 AAPL\n+ hold the rest\n1. Review tomorrow\n"
                + "2) Report"))
                .containsExactly("Plan", "Buy 10 NVDA", "Sell 5 AAPL", "hold the rest", "Review tomorrow", "Report");
    }

    @Test
    void softWrappedLinesAreJoined() {
        assertThat(Sentences.split("I will buy NVDA\nbecause demand is strong.\nThen I rest."))
                .containsExactly("I will buy NVDA because demand is strong.", "Then I rest.");
    }

    @Test
    void aNewLineStartingWithACapitalIsANewSentence() {
        assertThat(Sentences.split("Key intermediate steps\nRead the positions"))
                .containsExactly("Key intermediate steps", "Read the positions");
    }

    @Test
    void markdownNoiseIsStripped() {
        String markdown = """
                # **Decision**
                > Buy **10** `NVDA` because demand is *strong*; see [the report](https://example.com/r).
                ```json
                {"symbol": "NVDA"}
                ```
                | symbol | amount |
                |--------|--------|
                | NVDA   | 10     |
                ***
                __Done__ with 2 * 3 = 6 shares of snake_case_name.
                """;

        assertThat(Sentences.split(markdown)).containsExactly(
                "Decision",
                "Buy 10 NVDA because demand is strong; see the report.",
                "symbol, amount",
                "NVDA, 10",
                "Done with 2 * 3 = 6 shares of snake_case_name.");
    }

    @Test
    void aMessageOfOnlyCodeKeepsItsCode() {
        assertThat(Sentences.split("```python\nprint('hi')\n```")).containsExactly("print('hi')");
    }

    @Test
    void windowsLineEndingsAreLineEndings() {
        assertThat(Sentences.split("- Buy NVDA\r\n- Sell AAPL\r\n")).containsExactly("Buy NVDA", "Sell AAPL");
    }

    @Test
    void unicodeTextSplitsOnItsOwnTerminators() {
        assertThat(Sentences.split("我们决定买入英伟达。原因是需求强劲！还有问题吗？"))
                .containsExactly("我们决定买入英伟达。", "原因是需求强劲！", "还有问题吗？");
        assertThat(Sentences.split("Über alles. Ça va bien. Ещё раз. 🚀 Launch."))
                .containsExactly("Über alles.", "Ça va bien.", "Ещё раз.", "🚀 Launch.");
    }
}
