package dev.hindsight.query.trace;

import dev.hindsight.platform.tenant.TenantId;
import dev.hindsight.query.readmodel.ReadModel;
import dev.hindsight.query.readmodel.Times;
import dev.hindsight.query.session.SessionRepository;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;

/** Reads a debugging trace (a session of kind debug) in its upload shape (design.md § Trace format), in one query. */
@ApplicationScoped
class TraceRepository {

    private static final String SELECT = "SELECT s.*, " + SessionRepository.ACTIVITIES + " AS activities "
            + "FROM {rm}.session s WHERE s.tenant_id = $1 AND s.session_id = $2 AND s.kind = 'debug'";

    private final Pool pool;

    public TraceRepository(Pool pool) {
        this.pool = pool;
    }

    /** The trace {@code traceId} of {@code tenantId} in read model {@code rm}, if there is one. */
    public Uni<Optional<JsonObject>> find(ReadModel rm, TenantId tenant, String traceId) {
        return pool.preparedQuery(rm.sql(SELECT)).execute(Tuple.of(tenant.value(), traceId))
                .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(trace(rows.iterator().next())));
    }

    static JsonObject trace(Row row) {
        JsonObject attributes = row.getJsonObject("attributes");
        var score = row.getBigDecimal("qa_score");
        JsonObject qa = new JsonObject()
                .put("status", row.getString("qa_status"))
                .put("score", score == null ? null : score.doubleValue())
                .put("rubric", row.getJsonObject("qa_rubric"))
                .put("judged_at", Times.iso(row.getOffsetDateTime("qa_judged_at")));
        if (row.getString("qa_reason") != null) {
            qa.put("reason", row.getString("qa_reason"));
        }
        return new JsonObject()
                .put("trace_id", row.getString("session_id"))
                .put("developer_id", attributes.getString("developer_id"))
                .put("task_id", attributes.getString("task_id"))
                .put("task_description", attributes.getString("task_description"))
                .put("repo_url", attributes.getString("repo_url"))
                .put("repo_commit_hash", attributes.getString("repo_commit_hash"))
                .put("start_timestamp", Times.iso(row.getOffsetDateTime("started_at")))
                .put("end_timestamp", Times.iso(row.getOffsetDateTime("completed_at")))
                .put("Final_code_diff", row.getString("final_code_diff"))
                .put("outcome", row.getString("outcome"))
                .put("events", row.getJsonArray("activities"))
                .put("qa_results", qa);
    }
}
