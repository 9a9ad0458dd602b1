package dev.hindsight.query.reasoning;

import dev.hindsight.platform.problem.Problem.FieldError;
import dev.hindsight.platform.problem.ProblemException;
import dev.hindsight.platform.auth.TenantContext;
import dev.hindsight.query.cache.ReadCache;
import dev.hindsight.query.cache.Rendered;
import dev.hindsight.query.projection.Generations;
import dev.hindsight.query.projection.ReadModel;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * Seed 000's {@code GET /reasoning}: trading model-day sessions by job_id, date and model, each with its positions
 * and, when asked, its conversation. Two queries at most: the sessions (positions aggregated alongside), then every
 * matching session's messages at once. The rendered answer is kept until a session it shows changes, or a trading
 * session its filters match starts ({@link ReadCache}).
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

    /** Validated filters. */
    public record Filters(String jobId, LocalDate date, String model, boolean includeFullConversation) {

        public static Filters parse(String jobId, String date, String model, String includeFullConversation) {
            List<FieldError> errors = new ArrayList<>();
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
            return new Filters(jobId, day, model, full);
        }
    }

    /** The answer as seed 000 shapes it: {"sessions": [...], "count": N}, rendered. 404 when nothing matches. */
    public Uni<Rendered> find(Filters filters) {
        String tenantId = tenant.tenant();
        return generations.current().chain(rm -> cache.reasoning(tenantId,
                new ReadCache.ReasoningFilters(filters.jobId(), filters.date(), filters.model()),
                filters.includeFullConversation(), rm.generation(), () -> load(rm, tenantId, filters)));
    }

    private Uni<Rendered> load(ReadModel rm, String tenantId, Filters filters) {
        return sessions(rm, tenantId, filters).chain(sessions -> {
            if (sessions.isEmpty()) {
                throw ProblemException.notFound("No reasoning sessions match these filters");
            }
            Uni<Void> complete = filters.includeFullConversation() ? conversation(rm, tenantId, sessions)
                    : Uni.createFrom().voidItem();
            return complete.map(ignored -> {
                LinkedHashSet<String> shown = new LinkedHashSet<>();
                sessions.forEach(session -> shown.add(session.getString("session_id")));
                return Rendered.of(answer(sessions).toBuffer().getBytes(), rm.generation(), shown);
            });
        });
    }

    private Uni<List<JsonObject>> sessions(ReadModel rm, String tenantId, Filters filters) {
        List<Object> params = new ArrayList<>();
        params.add(tenantId);
        StringBuilder sql = new StringBuilder("SELECT s.session_id, s.job_id, s.trading_date, s.model, "
                + "s.session_summary, s.started_at, s.completed_at, s.total_messages, " + POSITIONS
                + " AS positions FROM {rm}.session s WHERE s.tenant_id = $1 AND s.kind = 'trading'");
        if (filters.jobId() != null) {
            params.add(filters.jobId());
            sql.append(" AND s.job_id = $").append(params.size());
        }
        if (filters.date() != null) {
            params.add(filters.date());
            sql.append(" AND s.trading_date = $").append(params.size());
        }
        if (filters.model() != null) {
            params.add(filters.model());
            sql.append(" AND s.model = $").append(params.size());
        }
        sql.append(" ORDER BY s.trading_date, s.model, s.job_id, s.session_id LIMIT ").append(MAX_SESSIONS);
        return pool.preparedQuery(rm.sql(sql.toString())).execute(Tuple.from(params)).map(rows -> {
            List<JsonObject> sessions = new ArrayList<>(rows.size());
            for (Row row : rows) {
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
            return sessions;
        });
    }

    private Uni<Void> conversation(ReadModel rm, String tenantId, List<JsonObject> sessions) {
        Map<String, JsonArray> bySession = new HashMap<>();
        String[] ids = new String[sessions.size()];
        for (int i = 0; i < sessions.size(); i++) {
            JsonArray conversation = new JsonArray();
            sessions.get(i).put("conversation", conversation);
            ids[i] = sessions.get(i).getString("session_id");
            bySession.put(ids[i], conversation);
        }
        return pool.preparedQuery(rm.sql(CONVERSATION)).execute(Tuple.of(tenantId, ids)).map(rows -> {
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

    private static JsonObject answer(List<JsonObject> sessions) {
        return new JsonObject().put("sessions", new JsonArray(new ArrayList<>(sessions))).put("count", sessions.size());
    }
}
