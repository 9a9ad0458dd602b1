package dev.hindsight.memory.work;

import dev.hindsight.memory.evidence.CompletedSession;
import dev.hindsight.platform.tenant.TenantId;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Singleton;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Reads a tracked session as the distiller takes it: three queries, whatever the session's size. */
@Singleton
class SessionLoader {

    private final Pool pool;

    public SessionLoader(Pool pool) {
        this.pool = pool;
    }

    /** The session, or null when it is unknown or has not completed. */
    public Uni<CompletedSession> load(TenantId tenant, String session) {
        Tuple key = Tuple.of(tenant.value(), session);
        return pool.preparedQuery("""
                        SELECT project_id, kind, model, task, completed_at, outcome, final_code_diff, summary,
                               judge_score, judge_rubric
                        FROM tracked_session WHERE tenant_id = $1 AND session_id = $2 AND completed_at IS NOT NULL""")
                .execute(key).flatMap(rows -> {
                    if (rows.size() == 0) {
                        return Uni.createFrom().nullItem();
                    }
                    Row s = rows.iterator().next();
                    return pool.preparedQuery("""
                                    SELECT message_index, role, content, steps FROM tracked_turn
                                    WHERE tenant_id = $1 AND session_id = $2 ORDER BY message_index""")
                            .execute(key).flatMap(turnRows -> pool.preparedQuery("""
                                            SELECT type, content, exit_code, output FROM tracked_activity
                                            WHERE tenant_id = $1 AND session_id = $2 ORDER BY occurred_at, event_id""")
                                    .execute(key).map(activityRows -> session(session, s, turns(turnRows),
                                            activities(activityRows))));
                });
    }

    private static List<CompletedSession.Turn> turns(Iterable<Row> rows) {
        List<CompletedSession.Turn> turns = new ArrayList<>();
        for (Row row : rows) {
            List<CompletedSession.Step> steps = new ArrayList<>();
            JsonArray stored = (JsonArray) row.getJson("steps");
            for (int i = 0; stored != null && i < stored.size(); i++) {
                JsonObject step = stored.getJsonObject(i);
                steps.add(new CompletedSession.Step(step.getInteger("order", i), step.getString("type"),
                        step.getString("content"), step.getString("tool_name"), step.getString("tool_result"),
                        step.getString("tool_error")));
            }
            turns.add(new CompletedSession.Turn(row.getInteger("message_index"), row.getString("role"),
                    row.getString("content"), steps));
        }
        return turns;
    }

    private static List<CompletedSession.Activity> activities(Iterable<Row> rows) {
        List<CompletedSession.Activity> activities = new ArrayList<>();
        for (Row row : rows) {
            activities.add(new CompletedSession.Activity(row.getString("type"), row.getString("content"),
                    row.getInteger("exit_code"), row.getString("output")));
        }
        return activities;
    }

    private static CompletedSession session(String id, Row s, List<CompletedSession.Turn> turns,
            List<CompletedSession.Activity> activities) {
        String task = s.getString("task");
        if (task == null) {
            task = turns.stream().filter(t -> "user".equals(t.role()) && t.content() != null).map(CompletedSession.Turn::content)
                    .findFirst().orElse(null);
        }
        CompletedSession.Judgement judgement = null;
        if (s.getInteger("judge_score") != null) {
            List<CompletedSession.Dimension> dimensions = new ArrayList<>();
            JsonArray rubric = (JsonArray) s.getJson("judge_rubric");
            for (int i = 0; rubric != null && i < rubric.size(); i++) {
                JsonObject d = rubric.getJsonObject(i);
                dimensions.add(new CompletedSession.Dimension(d.getString("dimension"), d.getInteger("score"),
                        d.getString("rationale")));
            }
            judgement = new CompletedSession.Judgement(s.getInteger("judge_score"), dimensions);
        }
        String outcome = s.getString("outcome") == null ? "unknown" : s.getString("outcome");
        Instant completed = s.getOffsetDateTime("completed_at").toInstant();
        String project = s.getString("project_id") != null ? s.getString("project_id")
                : s.getString("kind") != null ? s.getString("kind") : "default";
        // A session can complete without its start ever being recorded (a producer that sent only messages and the
        // completion, or whose start was refused): it is still distilled, as a session of unknown kind.
        String kind = s.getString("kind") != null ? s.getString("kind") : "unknown";
        return new CompletedSession(id, project, kind, s.getString("model"), task, turns, activities,
                CompletedSession.Outcome.valueOf(outcome.toUpperCase(Locale.ROOT)), s.getString("final_code_diff"),
                s.getString("summary"), judgement, completed);
    }
}
