package dev.hindsight.query.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hindsight.query.console.Text;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Given a session as the read model holds it, then its page shows what a reader needs, in the right order. */
class SessionPageTest {

    private static final OffsetDateTime T0 = OffsetDateTime.parse("2025-10-02T12:00:00+02:00");

    @Test
    void stepsAreShownInStepOrderWhateverTheOrderTheyWereStoredIn() {
        SessionView.MessageView message = new SessionView.MessageView(3, "assistant", "Done.", null, null, null, T0,
                """
                [{"step_order":2,"step_type":"reasoning","content":"third"},
                 {"step_order":0,"step_type":"reasoning","content":"first"},
                 {"step_order":1,"step_type":"tool","tool_name":"grep","tool_arguments":{"q":"x"},
                  "tool_error":"exit 2"}]""", null, null, null);

        SessionPage.Message shown = SessionPage.message("/ui/sessions/s", message, 100, Map.of());

        assertThat(shown.steps()).extracting(SessionPage.Step::order).containsExactly(0, 1, 2);
        assertThat(shown.steps()).extracting(SessionPage.Step::anchor).containsExactly("m3-s0", "m3-s1", "m3-s2");
        SessionPage.Step tool = shown.steps().get(1);
        assertThat(tool.tool()).isTrue();
        assertThat(tool.toolName()).isEqualTo("grep");
        assertThat(tool.arguments().preview()).contains("\"q\" : \"x\"");
        assertThat(tool.error().preview()).isEqualTo("exit 2");
        assertThat(shown.timestamp()).isEqualTo("2025-10-02 10:00:00 UTC");
        assertThat(shown.href()).isEqualTo("/ui/sessions/s/messages/3");
    }

    @Test
    void whatAMessageCostIsOneLineAndOnlyWhatIsKnownIsShown() {
        assertThat(SessionPage.usage(new SessionView.MessageView.Usage(12_345L, 32L, 1_049L, "gpt-5")))
                .isEqualTo("gpt-5 · 12,345 tokens in, 32 out · 1,049 ms");
        assertThat(SessionPage.usage(new SessionView.MessageView.Usage(null, 7L, null, null)))
                .isEqualTo("? tokens in, 7 out");
        assertThat(SessionPage.usage(new SessionView.MessageView.Usage(null, null, 5L, null))).isEqualTo("5 ms");
        assertThat(SessionPage.usage(null)).isNull();
        assertThat(SessionPage.usage(new SessionView.MessageView.Usage(2_000L, 90L, 800L, "o4-mini", 1_500L, 20L, 64L,
                12L))).isEqualTo("o4-mini · 2,000 tokens in (1,500 cached) (20 written to cache), 90 out (64 reasoning)"
                        + " · 800 ms · first token 12 ms");
        SessionView.MessageView fromApi = new SessionView.MessageView(0, "user", "hi", null, null, null, T0, "[]",
                null, null, null);
        assertThat(SessionPage.message("/ui/sessions/s", fromApi, 100, Map.of()).usage()).isNull();
    }

    @Test
    void aLongTextIsCutOnACodePointAndSaysItsWholeLength() {
        String text = "a" + "😀".repeat(10);

        Text cut = Text.of(text, 4);

        assertThat(cut.truncated()).isTrue();
        assertThat(cut.preview()).isEqualTo("a" + "😀");
        assertThat(cut.length()).isEqualTo(text.length());
        assertThat(Text.of("short", 5)).isEqualTo(new Text("short", false, 5));
        assertThat(Text.of(null, 5)).isNull();
    }

    @Test
    void evidenceLinksToTheActivitiesItCitesAndNamesTheOnesTheTraceDoesNotHold() {
        SessionView view = session("debug", null, """
                [{"event_id":"ev-1","timestamp":"2025-10-02T10:00:00.000Z","event_type":"command_run","payload":{}},
                 {"event_id":"ev-2","timestamp":"2025-10-02T10:00:01.000Z","event_type":"file_edit","payload":{}}]""",
                new SessionView.QaResults("completed", 72.0, """
                        {"evidence_gathering":{"score":80,"evidence_event_ids":["ev-2","ev-9"],"rationale":"ran it"}}""",
                        null, T0));

        SessionPage page = SessionPage.of(view, 100);

        assertThat(page.activities()).extracting(SessionPage.Activity::anchor).containsExactly("e1", "e2");
        SessionPage.Dimension dimension = page.qa().dimensions().get(0);
        assertThat(dimension.name()).isEqualTo("evidence_gathering");
        assertThat(dimension.score()).isEqualTo("80");
        assertThat(dimension.evidence()).containsExactly(new SessionPage.Evidence("ev-2", "e2", true),
                new SessionPage.Evidence("ev-9", null, false));
        assertThat(page.qa().score()).isEqualTo("72");
        assertThat(page.qa().completed()).isTrue();
    }

    @Test
    void positionsDrawCashAndValueAcrossTheChart() {
        SessionView view = session("trading", """
                [{"action_id":1,"symbol":"NVDA","cash_after":8104.0,"portfolio_value":10000.0},
                 {"action_id":2,"symbol":"GOOGL","cash_after":6633.1,"portfolio_value":10104.0}]""", null, null);

        SessionPage page = SessionPage.of(view, 100);

        assertThat(page.positions()).extracting(SessionPage.Position::cashAfter).containsExactly("8104.0", "6633.1");
        Chart chart = page.chart();
        assertThat(chart.drawn()).isTrue();
        assertThat(chart.low()).isEqualTo("6633.10");
        assertThat(chart.high()).isEqualTo("10104.00");
        // The highest figure at the top edge, the lowest at the bottom, first and last position at the sides.
        assertThat(chart.value()).isEqualTo("8.0,12.3 632.0,8.0");
        assertThat(chart.cash()).isEqualTo("8.0,91.0 632.0,152.0");
        assertThat(Chart.of(List.of()).drawn()).isFalse();
    }

    @Test
    void aSessionIdIsEncodedWholeInItsUrl() {
        assertThat(SessionPage.href("a/b c?d#e<f>")).isEqualTo("/ui/sessions/a%2Fb%20c%3Fd%23e%3Cf%3E");
    }

    private static SessionView session(String kind, String positions, String activities, SessionView.QaResults qa) {
        return new SessionView("s-1", kind, T0, null, null, null, null, null, 0, null, null, qa, List.of(),
                positions, activities);
    }
}
