package dev.hindsight.query.session;

import dev.hindsight.query.console.Text;

/** One session in the sessions list (and in the rows a live list receives). */
record SessionRow(String id, String href, String kind, String startedAt, String completedAt, String outcome,
        String model, int messages, Text summary, String qaStatus) {

    static SessionRow of(SessionListing.Summary s) {
        return new SessionRow(s.sessionId(), SessionPage.href(s.sessionId()), s.kind(), SessionPage.when(s.startedAt()),
                SessionPage.when(s.completedAt()), s.outcome(), s.model(), s.totalMessages(),
                Text.of(s.sessionSummary(), 280), s.qaStatus());
    }
}
