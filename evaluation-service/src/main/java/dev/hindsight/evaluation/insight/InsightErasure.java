package dev.hindsight.evaluation.insight;

import dev.hindsight.platform.erasure.ErasureLog;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;

/**
 * Erasing sessions' insight jobs (ADR 0028), pending, running or finished: a job that is running when its row goes
 * publishes nothing ({@link InsightWorker} records only the jobs whose rows it still finds).
 */
@ApplicationScoped
public class InsightErasure {

    private static final String BY_SESSIONS = "DELETE FROM insight_job WHERE tenant_id = $1 AND session_id = ANY($2)";
    private static final String BY_TENANT = "DELETE FROM insight_job WHERE tenant_id = $1";

    /** Deletes, on {@code tx}, the insight jobs of {@code erasure}, adding how many under {@code insight_job}. */
    public Uni<Void> erase(SqlClient tx, ErasureLog.Erasure erasure, Map<String, Long> erased) {
        erased.putIfAbsent("insight_job", 0L);
        if (!erasure.tenantWide() && erasure.sessionIds().isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return (erasure.tenantWide() ? tx.preparedQuery(BY_TENANT).execute(Tuple.of(erasure.tenant().value()))
                : tx.preparedQuery(BY_SESSIONS).execute(Tuple.of(erasure.tenant().value(),
                        erasure.sessionIds().toArray(String[]::new))))
                .invoke(rows -> erased.merge("insight_job", (long) rows.rowCount(), Long::sum))
                .replaceWithVoid();
    }
}
