package dev.hindsight.query.session;

import dev.hindsight.platform.tenant.TenantId;
import dev.hindsight.query.readmodel.Generations;
import dev.hindsight.query.readmodel.ReadModel;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Reads sessions from the current read-model generation: two queries whatever the session's size. */
@ApplicationScoped
public class SessionRepository {

    /**
     * Positions (design.md § Positions) and activities (in trace order, design.md § Events) ride along as JSON arrays.
     */
    public static final String POSITIONS = """
            COALESCE((SELECT json_agg(json_strip_nulls(json_build_object(
                        'action_id', p.action_id, 'action_type', p.action_type, 'symbol', p.symbol,
                        'amount', p.amount, 'price', p.price, 'cash_after', p.cash_after,
                        'portfolio_value', p.portfolio_value, 'daily_profit', p.daily_profit,
                        'daily_return_pct', p.daily_return_pct)) ORDER BY p.action_id)
                      FROM {rm}.position p WHERE p.tenant_id = s.tenant_id AND p.session_id = s.session_id),
                     '[]'::json)""";

    public static final String ACTIVITIES = """
            COALESCE((SELECT json_agg(json_build_object(
                        'event_id', a.activity_id,
                        'timestamp', to_char(a.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                        'event_type', a.event_type, 'payload', a.payload)
                        ORDER BY CASE WHEN a.sequence < 0 THEN 1 ELSE 0 END, a.sequence, a.occurred_at,
                                 a.source_partition, a.source_offset)
                      FROM {rm}.activity a WHERE a.tenant_id = s.tenant_id AND a.session_id = s.session_id),
                     '[]'::json)""";

    private static final String SELECT_SESSION = "SELECT s.*, " + POSITIONS + "::text AS positions, " + ACTIVITIES
            + "::text AS activities, s.agents::text AS agents_json"
            + " FROM {rm}.session s WHERE s.tenant_id = $1 AND s.session_id = $2";

    // JSON columns as text: written to the answer as they are stored, never decoded and re-encoded per message.
    private static final String SELECT_MESSAGES = """
            SELECT m.message_index, m.role, m.content, ms.summary, m.tool_name, m.tool_input, m.occurred_at,
                   m.thinking_steps::text AS thinking_steps, m.legacy_reasoning, m.legacy_tools::text AS legacy_tools,
                   m.input_tokens, m.output_tokens, m.latency_ms, m.model, m.cache_read_input_tokens,
                   m.cache_write_input_tokens, m.reasoning_output_tokens, m.time_to_first_token_ms,
                   m.system_instructions, m.tool_definitions::text AS tool_definitions
            FROM {rm}.message m
            LEFT JOIN {rm}.message_summary ms USING (tenant_id, session_id, message_index)
            WHERE m.tenant_id = $1 AND m.session_id = $2 ORDER BY m.message_index""";

    private final Pool pool;
    private final Generations generations;

    public SessionRepository(Pool pool, Generations generations) {
        this.pool = pool;
        this.generations = generations;
    }

    /** One page of this tenant's sessions, newest first, as {@code query} asks. */
    public Uni<SessionListing.Page> list(TenantId tenant, SessionListing.Query query) {
        List<Object> params = new ArrayList<>();
        String sql = query.sql(params, tenant);
        return generations.current().chain(rm -> pool.preparedQuery(rm.sql(sql)).execute(Tuple.from(params)))
                .map(rows -> {
                    List<SessionListing.Summary> page = new ArrayList<>(query.limit());
                    Instant lastListedAt = null;
                    for (Row row : rows) {
                        if (page.size() == query.limit()) {
                            // One row more than asked for: a next page exists, starting after the last one shown.
                            return new SessionListing.Page(page, page.size(), new SessionListing.Cursor(
                                    lastListedAt, page.get(page.size() - 1).sessionId()).encode());
                        }
                        lastListedAt = row.getOffsetDateTime("listed_at").toInstant();
                        page.add(summary(row));
                    }
                    return new SessionListing.Page(page, page.size(), null);
                });
    }

    /** The sessions among {@code ids} that {@code query}'s filters let through, newest first. */
    public Uni<List<SessionListing.Summary>> among(TenantId tenant, SessionListing.Query query, List<String> ids) {
        List<Object> params = new ArrayList<>();
        String sql = query.sqlAmong(params, tenant, ids);
        return generations.current().chain(rm -> pool.preparedQuery(rm.sql(sql)).execute(Tuple.from(params)))
                .map(rows -> {
                    List<SessionListing.Summary> found = new ArrayList<>(rows.size());
                    rows.forEach(row -> found.add(summary(row)));
                    return found;
                });
    }

    private static SessionListing.Summary summary(Row row) {
        return new SessionListing.Summary(row.getString("session_id"), row.getString("kind"),
                row.getOffsetDateTime("started_at"), row.getOffsetDateTime("completed_at"), row.getString("outcome"),
                row.getString("job_id"), row.getLocalDate("trading_date"), row.getString("model"),
                row.getInteger("total_messages"), row.getString("session_summary"), row.getString("qa_status"));
    }

    /** The whole session, or empty when this tenant has none by that id. */
    public Uni<Optional<SessionView>> find(TenantId tenant, String sessionId) {
        return generations.current().chain(model -> find(model, tenant, sessionId));
    }

    /**
     * The whole session in {@code model}, or empty when this tenant has none by that id. Both statements go to one
     * connection at once, so the client pipelines them instead of waiting for the session before asking for its messages:
     * a read that misses the cache is one round trip instead of two (docs/benchmarks.md).
     */
    public Uni<Optional<SessionView>> find(ReadModel model, TenantId tenant, String sessionId) {
        Tuple key = Tuple.of(tenant.value(), sessionId);
        return pool.withConnection(connection -> Uni.combine().all().unis(
                        connection.preparedQuery(model.sql(SELECT_SESSION)).execute(key),
                        connection.preparedQuery(model.sql(SELECT_MESSAGES)).execute(key)).asTuple())
                .map(both -> {
                    RowSet<Row> sessionRows = both.getItem1();
                    if (sessionRows.size() == 0) {
                        return Optional.<SessionView>empty();
                    }
                    RowSet<Row> messageRows = both.getItem2();
                    List<SessionView.MessageView> messages = new ArrayList<>(messageRows.size());
                    for (Row row : messageRows) {
                        messages.add(SessionView.MessageView.from(row));
                    }
                    return Optional.of(SessionView.from(sessionRows.iterator().next(), messages));
                });
    }
}
