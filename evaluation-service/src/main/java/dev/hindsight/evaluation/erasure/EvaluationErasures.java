package dev.hindsight.evaluation.erasure;

import dev.hindsight.evaluation.audit.AuditErasure;
import dev.hindsight.evaluation.insight.InsightErasure;
import dev.hindsight.evaluation.outbox.Outbox;
import dev.hindsight.evaluation.session.SessionErasure;
import dev.hindsight.platform.erasure.ErasureApplier;
import dev.hindsight.platform.erasure.ErasureLog;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Applies an erasure to evaluation-service's state: in one transaction, claims it in {@code erasure_applied} (a
 * replica or a start that finds it claimed does nothing), deletes what each package keeps of the erased sessions and
 * messages, or of the whole tenant, then their events not yet published, and records the counts. What arrives for the
 * erased ids afterwards is skipped by both consumers (the platform's consumer skeleton). Nothing here is keyed by a
 * trace: evaluation-service does not read the spans, only the sessions and messages the erasure names. The ledger of
 * processed events stays: it holds event ids, no content, and keeps a replay from applying an event twice.
 */
@ApplicationScoped
class EvaluationErasures implements ErasureApplier {

    private static final String CLAIM = """
            INSERT INTO erasure_applied (erasure_id, tenant_id) VALUES ($1, $2) ON CONFLICT (erasure_id) DO NOTHING""";
    private static final String RECORD = """
            UPDATE erasure_applied SET erased = $3 WHERE erasure_id = $1 AND tenant_id = $2""";

    private final Pool pool;
    private final SessionErasure sessions;
    private final InsightErasure jobs;
    private final AuditErasure audit;
    private final Outbox outbox;

    EvaluationErasures(Pool pool, SessionErasure sessions, InsightErasure jobs, AuditErasure audit, Outbox outbox) {
        this.pool = pool;
        this.sessions = sessions;
        this.jobs = jobs;
        this.audit = audit;
        this.outbox = outbox;
    }

    @Override
    public Uni<Optional<Map<String, Long>>> apply(ErasureLog.Erasure erasure) {
        return pool.withTransaction(tx -> apply(tx, erasure));
    }

    /** {@link #apply(ErasureLog.Erasure)} on {@code tx}, a transaction of the caller's. */
    Uni<Optional<Map<String, Long>>> apply(SqlClient tx, ErasureLog.Erasure erasure) {
        return tx.preparedQuery(CLAIM).execute(Tuple.of(erasure.id(), erasure.tenant().value()))
                .chain(claimed -> claimed.rowCount() == 0 ? Uni.createFrom().item(Optional.<Map<String, Long>>empty())
                        : erase(tx, erasure).chain(erased -> tx.preparedQuery(RECORD)
                                .execute(Tuple.of(erasure.id(), erasure.tenant().value(),
                                        new JsonObject(Map.<String, Object>copyOf(erased))))
                                .map(ignored -> Optional.of(Collections.unmodifiableMap(erased)))));
    }

    /**
     * Every package's rows, the outbox last: a job or a scoring that finished as the erasure ran either committed
     * before the rows it wrote could be deleted, so its events are in the outbox by now, or finds those rows gone and
     * writes none.
     */
    private Uni<Map<String, Long>> erase(SqlClient tx, ErasureLog.Erasure erasure) {
        Map<String, Long> erased = new TreeMap<>();
        return sessions.erase(tx, erasure, erased)
                .chain(() -> jobs.erase(tx, erasure, erased))
                .chain(() -> audit.erase(tx, erasure, erased))
                .chain(messages -> {
                    if (erasure.tenantWide()) {
                        return outbox.eraseTenant(tx, erasure.tenant());
                    }
                    // Insights are keyed by session, evaluations by message.
                    Set<String> keys = new LinkedHashSet<>(erasure.sessionIds());
                    keys.addAll(erasure.messageIds());
                    keys.addAll(messages);
                    return outbox.erase(tx, erasure.tenant(), keys);
                })
                .map(n -> {
                    erased.put("outbox", n);
                    return erased;
                });
    }
}
