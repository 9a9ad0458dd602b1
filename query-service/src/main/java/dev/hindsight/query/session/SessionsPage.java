package dev.hindsight.query.session;

import dev.hindsight.query.console.ConsolePaths;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The sessions list: the filters as given (to fill the form again), one page of sessions, the next page's URL. */
record SessionsPage(SessionListing.Filters filters, List<SessionRow> rows, String next, String live,
        String error) {

    /**
     * The first page of a list is live: sessions that start or change while it is open come in at the top. A later
     * page stays as it was read.
     */
    static SessionsPage of(SessionListing.Filters filters, SessionListing.Page page, boolean first) {
        List<SessionRow> rows = page.sessions().stream().map(SessionRow::of).toList();
        return new SessionsPage(filters, rows, page.nextCursor() == null ? null : url(filters, page.nextCursor()),
                first ? url(ConsolePaths.LIVE_SESSIONS, filters, null) : null, null);
    }

    static SessionsPage invalid(SessionListing.Filters filters, String error) {
        return new SessionsPage(filters, List.of(), null, null, error);
    }

    /** The list's URL with these filters, from {@code cursor} (null: the first page). */
    static String url(SessionListing.Filters filters, String cursor) {
        return url(ConsolePaths.SESSIONS, filters, cursor);
    }

    private static String url(String path, SessionListing.Filters filters, String cursor) {
        Map<String, String> query = new LinkedHashMap<>();
        query.put("kind", filters.kind());
        query.put("model", filters.model());
        query.put("outcome", filters.outcome());
        query.put("qa_status", filters.qaStatus());
        query.put("label", filters.label());
        query.put("from", filters.from());
        query.put("to", filters.to());
        query.put("cursor", cursor);
        StringBuilder url = new StringBuilder(path);
        query.forEach((name, value) -> {
            if (value != null) {
                url.append(url.indexOf("?") < 0 ? '?' : '&').append(name).append('=')
                        .append(URLEncoder.encode(value, StandardCharsets.UTF_8));
            }
        });
        return url.toString();
    }
}
