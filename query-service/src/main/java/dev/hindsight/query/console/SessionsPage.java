package dev.hindsight.query.console;

import dev.hindsight.query.session.SessionListing;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The sessions list: the filters as given (to fill the form again), one page of sessions, the next page's URL. */
public record SessionsPage(SessionListing.Filters filters, List<Row> rows, String next, String error) {

    /** One session in the list. */
    public record Row(String id, String href, String kind, String startedAt, String completedAt, String outcome,
            String model, int messages, Text summary, String qaStatus) {
    }

    static SessionsPage of(SessionListing.Filters filters, SessionListing.Page page) {
        List<Row> rows = page.sessions().stream().map(s -> new Row(s.sessionId(), SessionPage.href(s.sessionId()),
                s.kind(), SessionPage.when(s.startedAt()), SessionPage.when(s.completedAt()), s.outcome(), s.model(),
                s.totalMessages(), Text.of(s.sessionSummary(), 280), s.qaStatus())).toList();
        return new SessionsPage(filters, rows, page.nextCursor() == null ? null : url(filters, page.nextCursor()),
                null);
    }

    /** The list's URL with these filters, from {@code cursor} (null: the first page). */
    static String url(SessionListing.Filters filters, String cursor) {
        Map<String, String> query = new LinkedHashMap<>();
        query.put("kind", filters.kind());
        query.put("model", filters.model());
        query.put("outcome", filters.outcome());
        query.put("qa_status", filters.qaStatus());
        query.put("label", filters.label());
        query.put("from", filters.from());
        query.put("to", filters.to());
        query.put("cursor", cursor);
        StringBuilder url = new StringBuilder(ConsolePaths.SESSIONS);
        query.forEach((name, value) -> {
            if (value != null) {
                url.append(url.indexOf("?") < 0 ? '?' : '&').append(name).append('=')
                        .append(URLEncoder.encode(value, StandardCharsets.UTF_8));
            }
        });
        return url.toString();
    }
}
