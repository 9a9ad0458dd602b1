package dev.hindsight.query.audit;

import dev.hindsight.platform.problem.Problem.FieldError;
import dev.hindsight.platform.problem.ProblemException;
import dev.hindsight.platform.tenant.TenantId;
import dev.hindsight.query.readmodel.Generations;
import dev.hindsight.query.readmodel.ReadModel;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;

/**
 * The audit queries of design.md § Queries and leaderboard, which {@link AuditResource} serves. Events come back as
 * audit events: {@code {"event_id", "event_type", "level", "payload": {...}}}, the JSON built by PostgreSQL in the same
 * query.
 */
@ApplicationScoped
class AuditQueries {

    static final int DEFAULT_LIMIT = 100;
    static final int MAX_LIMIT = 1000;

    static final String DECISION_SET_EVENT = """
            json_build_object('event_id', d.event_id, 'event_type', 'DECISION_SET_CREATED', 'level', d.level,
                'payload', json_strip_nulls(json_build_object(
                    'decision_set_id', d.decision_set_id, 'message_id', d.message_id, 'session_id', d.session_id,
                    'question_text', d.question_text, 'question_hash', d.question_hash,
                    'active_version', d.active_version, 'shadow_versions', d.shadow_versions,
                    'active_decision', d.active_decision, 'shadow_decisions', d.shadow_decisions,
                    'context_snapshot', d.context_snapshot,
                    'timestamp', to_char(d.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))))""";

    static final String SIGNAL_EVENT = """
            json_build_object('event_id', b.event_id, 'event_type', 'USER_BEHAVIOR_SIGNAL', 'level', b.level,
                'payload', json_build_object(
                    'message_id', b.message_id, 'session_id', b.session_id, 'signal_type', b.signal_type,
                    'signal_data', COALESCE(b.extra_data, '{}'::jsonb) || b.signal_data,
                    'timestamp', to_char(b.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')))""";

    static final String SIGNALS_OF_MESSAGE = "SELECT " + SIGNAL_EVENT + " AS event FROM {rm}.behavior_signal b "
            + "WHERE b.tenant_id = $1 AND b.message_id = $2 ORDER BY b.occurred_at, b.event_id";

    static final String EVALUATION_EVENT = """
            json_build_object('event_id', e.event_id, 'event_type', 'SHADOW_EVALUATION_COMPLETED', 'level', e.level,
                'payload', json_build_object(
                    'evaluation_id', e.evaluation_id, 'decision_set_id', e.decision_set_id,
                    'message_id', e.message_id, 'session_id', e.session_id, 'active_version', e.active_version,
                    'active_score', e.active_score, 'shadow_scores', e.shadow_scores, 'signals_used', e.signals_used,
                    'evaluation_time_ms', e.evaluation_time_ms, 'evaluation_method', e.evaluation_method,
                    'revision', e.revision, 'trigger', e.trigger,
                    'timestamp', to_char(e.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')))""";

    static final String COMPARISON_EVENT = """
            json_build_object('event_id', c.event_id, 'event_type', 'DECISION_COMPARISON', 'level', c.level,
                'payload', json_build_object(
                    'comparison_id', c.comparison_id, 'decision_set_id', c.decision_set_id,
                    'active_version', c.active_version, 'shadow_version', c.shadow_version,
                    'comparison_result', json_strip_nulls(json_build_object(
                        'decision_diverged', c.decision_diverged, 'action_diverged', c.action_diverged,
                        'active_action', c.active_action, 'shadow_action', c.shadow_action,
                        'confidence_delta', c.confidence_delta, 'reasoning_similarity', c.reasoning_similarity,
                        'similarity_model', c.similarity_model, 'divergence_severity', c.divergence_severity)),
                    'comparison_type', c.comparison_type,
                    'timestamp', to_char(c.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')))""";

    // Every revision, oldest first: a late signal adds a revision, it never edits one.
    static final String EVALUATIONS_OF_SET = "SELECT " + EVALUATION_EVENT + " AS event FROM {rm}.shadow_evaluation e "
            + "WHERE e.tenant_id = $1 AND e.decision_set_id = $2 ORDER BY e.revision";

    static final String COMPARISONS_OF_SET = "SELECT " + COMPARISON_EVENT + " AS event FROM {rm}.decision_comparison c "
            + "WHERE c.tenant_id = $1 AND c.decision_set_id = $2 ORDER BY c.shadow_version";

    private static final String EXISTS = "SELECT 1 FROM {rm}.decision_set WHERE tenant_id = $1 AND decision_set_id = $2";

    private static final String ONE = "SELECT d.message_id, " + DECISION_SET_EVENT + " AS event "
            + "FROM {rm}.decision_set d WHERE d.tenant_id = $1 AND d.decision_set_id = $2";

    private final Pool pool;
    private final Generations generations;

    public AuditQueries(Pool pool, Generations generations) {
        this.pool = pool;
        this.generations = generations;
    }

    /** The decision sets of {@code tenantId}, newest first ({@code decision_sets}, {@code count}). */
    public Uni<JsonObject> list(TenantId tenantId, String sessionId, String hasShadow, String limit) {
        List<FieldError> errors = new ArrayList<>();
        Boolean shadow = null;
        if (hasShadow != null) {
            switch (hasShadow) {
                case "true" -> shadow = true;
                case "false" -> shadow = false;
                default -> errors.add(new FieldError("has_shadow", "must be true or false"));
            }
        }
        int size = limit(limit, errors);
        if (sessionId != null && (sessionId.isBlank() || sessionId.length() > 128)) {
            errors.add(new FieldError("session_id", "must be 1 to 128 characters"));
        }
        if (!errors.isEmpty()) {
            throw ProblemException.badRequest("Invalid query", errors);
        }
        List<Object> params = new ArrayList<>();
        params.add(tenantId.value());
        StringBuilder sql = new StringBuilder("SELECT " + DECISION_SET_EVENT
                + " AS event FROM {rm}.decision_set d WHERE d.tenant_id = $1");
        if (sessionId != null) {
            params.add(sessionId);
            sql.append(" AND d.session_id = $").append(params.size());
        }
        if (shadow != null) {
            sql.append(shadow ? " AND d.has_shadow" : " AND NOT d.has_shadow");
        }
        params.add(size);
        sql.append(" ORDER BY d.occurred_at DESC, d.decision_set_id DESC LIMIT $").append(params.size());
        return generations.current()
                .chain(rm -> pool.preparedQuery(rm.sql(sql.toString())).execute(Tuple.from(params)))
                .map(rows -> {
                    JsonArray sets = events(rows);
                    return new JsonObject().put("decision_sets", sets).put("count", sets.size());
                });
    }

    /** The decision set with its signals, evaluations and comparisons. */
    public Uni<JsonObject> get(TenantId tenantId, String decisionSetId) {
        return generations.current().chain(rm -> pool.preparedQuery(rm.sql(ONE))
                .execute(Tuple.of(tenantId.value(), decisionSetId)).chain(rows -> {
                    if (rows.size() == 0) {
                        throw ProblemException.notFound("No decision set " + decisionSetId);
                    }
                    Row set = rows.iterator().next();
                    Tuple key = Tuple.of(tenantId.value(), decisionSetId);
                    // The three depend only on the set: sent to one connection at once, they are pipelined (one round
                    // trip, as a session read, SessionRepository).
                    return pool.withConnection(connection -> Uni.combine().all().unis(
                                    signals(connection, rm, tenantId, set.getString("message_id")),
                                    connection.preparedQuery(rm.sql(EVALUATIONS_OF_SET)).execute(key),
                                    connection.preparedQuery(rm.sql(COMPARISONS_OF_SET)).execute(key)).asTuple())
                            .map(all -> new JsonObject()
                                    .put("decision_set", new JsonObject(set.getValue("event").toString()))
                                    .put("signals", all.getItem1())
                                    .put("evaluations", events(all.getItem2()))
                                    .put("comparisons", events(all.getItem3())));
                }));
    }

    /** Every revision of the set's evaluation, oldest first ({@code evaluations}, {@code count}). */
    public Uni<JsonObject> evaluations(TenantId tenantId, String decisionSetId) {
        Tuple key = Tuple.of(tenantId.value(), decisionSetId);
        // Whether the set exists and its evaluations are independent reads: pipelined on one connection, one round trip.
        return generations.current().chain(rm -> pool.withConnection(connection -> Uni.combine().all().unis(
                        connection.preparedQuery(rm.sql(EXISTS)).execute(key),
                        connection.preparedQuery(rm.sql(EVALUATIONS_OF_SET)).execute(key)).asTuple()))
                .map(found -> {
                    if (found.getItem1().size() == 0) {
                        throw ProblemException.notFound("No decision set " + decisionSetId);
                    }
                    JsonArray evaluations = events(found.getItem2());
                    return new JsonObject().put("evaluations", evaluations).put("count", evaluations.size());
                });
    }

    /** The behaviour signals on a message, oldest first ({@code signals}, {@code count}). */
    public Uni<JsonObject> signals(TenantId tenantId, String messageId) {
        return generations.current().chain(rm -> signals(pool, rm, tenantId, messageId))
                .map(signals -> new JsonObject().put("signals", signals).put("count", signals.size()));
    }

    static Uni<JsonArray> signals(SqlClient client, ReadModel rm, TenantId tenantId, String messageId) {
        return client.preparedQuery(rm.sql(SIGNALS_OF_MESSAGE)).execute(Tuple.of(tenantId.value(), messageId))
                .map(AuditQueries::events);
    }

    static JsonArray events(Iterable<Row> rows) {
        JsonArray events = new JsonArray();
        for (Row row : rows) {
            Object event = row.getValue("event");
            events.add(event instanceof JsonObject json ? json : new JsonObject(event.toString()));
        }
        return events;
    }

    static int limit(String limit, List<FieldError> errors) {
        if (limit == null) {
            return DEFAULT_LIMIT;
        }
        try {
            int size = Integer.parseInt(limit);
            if (size >= 1 && size <= MAX_LIMIT) {
                return size;
            }
        } catch (NumberFormatException notANumber) {
            // reported below
        }
        errors.add(new FieldError("limit", "must be an integer between 1 and " + MAX_LIMIT));
        return DEFAULT_LIMIT;
    }
}
