package dev.hindsight.query.reasoning;

import dev.hindsight.platform.auth.TenantContext;
import dev.hindsight.platform.json.StorableText;
import dev.hindsight.platform.problem.Problem.FieldError;
import dev.hindsight.platform.problem.ProblemException;
import dev.hindsight.platform.tenant.TenantId;
import dev.hindsight.query.readmodel.Generations;
import dev.hindsight.query.readmodel.ReadCache;
import dev.hindsight.query.readmodel.ReadModel;
import dev.hindsight.query.readmodel.Rendered;
import dev.hindsight.query.readmodel.Times;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * {@code GET /reasoning} (design.md § The /reasoning query): trading model-day sessions by job_id, date and model, each
 * with its positions and, when asked, its conversation. Two queries at most: the sessions (positions aggregated
 * alongside), then every matching session's messages at once. The rendered answer is kept until a session it shows
 * changes, or a trading session its filters match starts ({@link ReadCache}).
 */
@ApplicationScoped
public class ReasoningQuery {

    /** Most sessions one answer carries. */
    public static final int MAX_SESSIONS = 1000;

    private static final String POSITIONS = """
            COALESCE((SELECT json_agg(json_build_object(
                        'action_id', p.action_id, 'action_type', p.action_type, 'symbol', p.symbol,
                        'amount', p.amount, 'price', p.price, 'cash_after', p.cash_after,
                        'portfolio_value', p.portfolio_value) ORDER BY p.action_id)
                      FROM {rm}.position p WHERE p.tenant_id = s.tenant_id AND p.session_id = s.session_id),
                     '[]'::json)""";

    private static final String CONVERSATION = """
            SELECT m.session_id, m.message_index, m.role, m.content, ms.summary, m.occurred_at
            FROM {rm}.message m
            LEFT JOIN {rm}.message_summary ms USING (tenant_id, session_id, message_index)
            WHERE m.tenant_id = $1 AND m.session_id = ANY($2) ORDER BY m.session_id, m.message_index""";

    private final Pool pool;
    private final Generations generations;
    private final TenantContext tenant;
    private final ReadCache cache;

    public ReasoningQuery(Pool pool, Generations generations, TenantContext tenant, ReadCache cache) {
        this.pool = pool;
        this.generations = generations;
        this.tenant = tenant;
        this.cache = cache;
    }

    /**
     * Validated filters, and the page asked for: at most {@code limit} sessions after {@code after} (the last session
     * of the page before, decoded from the answer's {@code next_cursor}; null for the first page).
     */
    public record Filters(String jobId, LocalDate date, String model, boolean includeFullConversation, int limit,
            Cursor after) {

        public static Filters parse(String jobId, String date, String model, String includeFullConversation) {
            return parse(jobId, date, model, includeFullConversation, null, null);
        }

        public static Filters parse(String jobId, String date, String model, String includeFullConversation,
                String limit, String cursor) {
            List<FieldError> errors = new ArrayList<>();
            int size = MAX_SESSIONS;
            if (limit != null) {
                try {
                    size = Integer.parseInt(limit.trim());
                } catch (NumberFormatException notANumber) {
                    size = -1;
                }
                if (size < 1 || size > MAX_SESSIONS) {
                    errors.add(new FieldError("limit", "must be a whole number from 1 to " + MAX_SESSIONS));
                }
            }
            Cursor after = null;
            if (cursor != null) {
                after = Cursor.decode(cursor);
                if (after == null) {
                    errors.add(new FieldError("cursor", "must be a next_cursor from an earlier answer"));
                }
            }
            LocalDate day = null;
            if (date != null) {
                try {
                    day = LocalDate.parse(date);
                } catch (DateTimeParseException bad) {
                    errors.add(new FieldError("date", "must be a date in YYYY-MM-DD format, got '" + date + "'"));
                }
            }
            boolean full = false;
            if (includeFullConversation != null) {
                switch (includeFullConversation.toLowerCase(java.util.Locale.ROOT)) {
                    case "true", "1" -> full = true;
                    case "false", "0" -> full = false;
                    default -> errors.add(new FieldError("include_full_conversation", "must be true or false"));
                }
            }
            for (var param : List.of(new String[] {"job_id", jobId}, new String[] {"model", model})) {
                if (param[1] != null && (param[1].isBlank() || param[1].length() > 200)) {
                    errors.add(new FieldError(param[0], "must be 1 to 200 characters"));
                }
            }
            if (!errors.isEmpty()) {
                throw ProblemException.badRequest("Invalid query", errors);
            }
            return new Filters(jobId, day, model, full, size, after);
        }

        /** The cache's name for this page. */
        String page() {
            return limit + (after == null ? "" : ":" + after.encode());
        }
    }

    /**
     * Where a page ends, in the answer's order: trading date ({@code -infinity} for none), model and job id (empty for
     * none), session id. Opaque to clients: URL-safe base64 of a JSON array.
     */
    public record Cursor(String date, String model, String jobId, String sessionId) {

        static Cursor after(JsonObject session) {
            String date = session.getString("date");
            return new Cursor(date == null || date.equals("null") ? "-infinity" : date,
                    Objects.requireNonNullElse(session.getString("model"), ""),
                    Objects.requireNonNullElse(session.getString("job_id"), ""), session.getString("session_id"));
        }

        public String encode() {
            String json = new JsonArray().add(date).add(model).add(jobId).add(sessionId).encode();
            return Base64.getUrlEncoder().withoutPadding().encodeToString(json.getBytes(StandardCharsets.UTF_8));
        }

        /** The cursor {@code text} names, or null when it is not one this service wrote. */
        static Cursor decode(String text) {
            try {
                JsonArray fields = new JsonArray(new String(Base64.getUrlDecoder().decode(text.trim()),
                        StandardCharsets.UTF_8));
                if (fields.size() != 4) {
                    return null;
                }
                for (int i = 0; i < 4; i++) {
                    if (!(fields.getValue(i) instanceof String field) || StorableText.problem(field) != null) {
                        return null;
                    }
                }
                String date = fields.getString(0);
                // A date PostgreSQL holds; the read model's dates are all within these years.
                if (!date.equals("-infinity") && !(LocalDate.parse(date).getYear() >= 1
                        && LocalDate.parse(date).getYear() <= 9999)) {
                    return null;
                }
                return new Cursor(date, fields.getString(1), fields.getString(2), fields.getString(3));
            } catch (RuntimeException notACursor) {
                return null;
            }
        }
    }

    /** The answer, {"sessions": [...], "count": N} (design.md § The /reasoning query), rendered; 404 when none. */
    public Uni<Rendered> find(Filters filters) {
        TenantId tenantId = tenant.tenant();
        return generations.current().chain(rm -> cache.reasoning(tenantId,
                new ReadCache.ReasoningFilters(filters.jobId(), filters.date(), filters.model()),
                filters.includeFullConversation(), filters.page(), rm.generation(), () -> load(rm, tenantId, filters)));
    }

    private Uni<Rendered> load(ReadModel rm, TenantId tenantId, Filters filters) {
        return sessions(rm, tenantId, filters).chain(page -> {
            if (page.total() == 0) {
                throw ProblemException.notFound("No reasoning sessions match these filters");
            }
            // The page was read with one session more than it shows, to know whether another page follows.
            boolean more = page.sessions().size() > filters.limit();
            List<JsonObject> sessions = more ? page.sessions().subList(0, filters.limit()) : page.sessions();
            Uni<Void> complete = filters.includeFullConversation() ? conversation(rm, tenantId, sessions)
                    : Uni.createFrom().voidItem();
            return complete.map(ignored -> {
                LinkedHashSet<String> shown = new LinkedHashSet<>();
                sessions.forEach(session -> shown.add(session.getString("session_id")));
                JsonObject answer = new JsonObject().put("sessions", new JsonArray(new ArrayList<>(sessions)))
                        .put("count", sessions.size()).put("total", page.total());
                if (more) {
                    answer.put("next_cursor", Cursor.after(sessions.get(sessions.size() - 1)).encode());
                }
                return Rendered.of(answer.toBuffer().getBytes(), rm.generation(), shown);
            });
        });
    }

    /** The tenant's trading sessions, which every filter narrows. */
    private static final String TRADING_SESSIONS = "FROM {rm}.session s WHERE s.tenant_id = $1 AND s.kind = 'trading'";

    /** A page of sessions, and how many sessions match the filters in all. */
    private record Page(List<JsonObject> sessions, long total) {
    }

    private Uni<Page> sessions(ReadModel rm, TenantId tenantId, Filters filters) {
        List<Object> params = new ArrayList<>();
        params.add(tenantId.value());
        StringBuilder matching = new StringBuilder(); // the filters beyond the tenant's trading sessions
        if (filters.jobId() != null) {
            params.add(filters.jobId());
            matching.append(" AND s.job_id = $").append(params.size());
        }
        if (filters.date() != null) {
            params.add(filters.date());
            matching.append(" AND s.trading_date = $").append(params.size());
        }
        if (filters.model() != null) {
            params.add(filters.model());
            matching.append(" AND s.model = $").append(params.size());
        }
        // The answer's order, with the columns a trading session may lack made comparable, so that a page can
        // start strictly after the cursor.
        String order = "(COALESCE(s.trading_date, '-infinity'::date), COALESCE(s.model, ''), COALESCE(s.job_id, ''), "
                + "s.session_id)";
        StringBuilder sql = new StringBuilder("SELECT s.session_id, s.job_id, s.trading_date, s.model, "
                + "s.session_summary, s.started_at, s.completed_at, s.total_messages, " + POSITIONS
                + " AS positions, (SELECT count(*) " + TRADING_SESSIONS + matching + ") AS total " + TRADING_SESSIONS)
                .append(matching);
        if (filters.after() != null) {
            Cursor after = filters.after();
            params.add(after.date());
            params.add(after.model());
            params.add(after.jobId());
            params.add(after.sessionId());
            int n = params.size();
            sql.append(" AND ").append(order).append(" > ($").append(n - 3).append("::text::date, $").append(n - 2)
                    .append("::text, $").append(n - 1).append("::text, $").append(n).append("::text)");
        }
        sql.append(" ORDER BY ").append(order.substring(1, order.length() - 1)).append(" LIMIT ")
                .append(filters.limit() + 1);
        return pool.preparedQuery(rm.sql(sql.toString())).execute(Tuple.from(params)).chain(rows -> {
            if (rows.size() == 0 && filters.after() != null) {
                // Past the last page: say how many match all the same (a separate count; the page had no row to
                // carry it).
                return pool.preparedQuery(rm.sql("SELECT count(*) " + TRADING_SESSIONS + matching))
                        .execute(Tuple.from(params.subList(0, params.size() - 4)))
                        .map(counted -> new Page(List.of(), counted.iterator().next().getLong(0)));
            }
            return Uni.createFrom().item(page(rows));
        });
    }

    private static Page page(RowSet<Row> rows) {
        long total = 0;
        List<JsonObject> sessions = new ArrayList<>(rows.size());
        for (Row row : rows) {
            total = row.getLong("total");
            JsonObject session = new JsonObject()
                    .put("session_id", row.getString("session_id"))
                    .put("job_id", row.getString("job_id"))
                    .put("date", String.valueOf(row.getLocalDate("trading_date")))
                    .put("model", row.getString("model"))
                    .put("session_summary", row.getString("session_summary"))
                    .put("started_at", Times.iso(row.getOffsetDateTime("started_at")))
                    .put("completed_at", Times.iso(row.getOffsetDateTime("completed_at")))
                    .put("total_messages", row.getInteger("total_messages"))
                    .put("positions", row.getJsonArray("positions"));
            sessions.add(session);
        }
        return new Page(sessions, total);
    }

    private Uni<Void> conversation(ReadModel rm, TenantId tenantId, List<JsonObject> sessions) {
        Map<String, JsonArray> bySession = new HashMap<>();
        String[] ids = new String[sessions.size()];
        for (int i = 0; i < sessions.size(); i++) {
            JsonArray conversation = new JsonArray();
            sessions.get(i).put("conversation", conversation);
            ids[i] = sessions.get(i).getString("session_id");
            bySession.put(ids[i], conversation);
        }
        return pool.preparedQuery(rm.sql(CONVERSATION)).execute(Tuple.of(tenantId.value(), ids)).map(rows -> {
            for (Row row : rows) {
                JsonObject message = new JsonObject()
                        .put("message_index", row.getInteger("message_index"))
                        .put("role", row.getString("role"))
                        .put("content", row.getString("content"));
                if ("assistant".equals(row.getString("role"))) {
                    message.put("summary", row.getString("summary"));
                }
                message.put("timestamp", Times.iso(row.getOffsetDateTime("occurred_at")));
                bySession.get(row.getString("session_id")).add(message);
            }
            return null;
        });
    }
}
