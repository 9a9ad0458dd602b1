package dev.hindsight.query.erasure;

import dev.hindsight.platform.erasure.ErasureApplier;
import dev.hindsight.platform.erasure.ErasureLog;
import dev.hindsight.query.readmodel.Change;
import dev.hindsight.query.readmodel.ChangeFeed;
import dev.hindsight.query.readmodel.Erasable;
import dev.hindsight.query.readmodel.Generations;
import dev.hindsight.query.readmodel.ReadModel;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Applies an erasure to the read models: in one transaction, claims it in table {@code erasure} (a replica that
 * finds it claimed does nothing), runs every feature's {@link Erasable} over every generation that still exists,
 * records the counts, and announces that every cached answer may be stale, so every replica drops its cache. What
 * arrives for the erased ids afterwards is skipped by every projection (the platform's consumer skeleton), a
 * rebuild's backfill included.
 */
@ApplicationScoped
class ReadModelErasures implements ErasureApplier {

    private static final String CLAIM = """
            INSERT INTO erasure (erasure_id, tenant_id, principal, selector, selector_hash, requested_at)
            VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (erasure_id) DO NOTHING""";
    private static final String RECORD = "UPDATE erasure SET erased = $3, applied_at = now() "
            + "WHERE erasure_id = $1 AND tenant_id = $2";

    private final Pool pool;
    private final Generations generations;
    private final ChangeFeed changes;
    private final List<Erasable> features = new ArrayList<>();

    ReadModelErasures(Pool pool, Generations generations, ChangeFeed changes, @Any Instance<Erasable> features) {
        this.pool = pool;
        this.generations = generations;
        this.changes = changes;
        features.forEach(this.features::add);
    }

    @Override
    public Uni<Optional<Map<String, Long>>> apply(ErasureLog.Erasure erasure) {
        Erasable.Scope scope = new Erasable.Scope(erasure.tenant(), erasure.tenantWide(), erasure.sessionIds(),
                erasure.messageIds(), erasure.traceIds());
        return pool.withTransaction(tx -> tx.preparedQuery(CLAIM).execute(Tuple.of(erasure.id(),
                        erasure.tenant().value(), erasure.principal(), erasure.selector(), erasure.selectorHash(),
                        erasure.requestedAt().atOffset(ZoneOffset.UTC)))
                .chain(claimed -> claimed.rowCount() == 0 ? Uni.createFrom().item(Optional.<Map<String, Long>>empty())
                        : erase(tx, scope).chain(erased -> tx.preparedQuery(RECORD)
                                .execute(Tuple.of(erasure.id(), erasure.tenant().value(), new JsonObject(
                                        Map.<String, Object>copyOf(erased))))
                                .chain(() -> changes.announce(tx, List.of(Change.everything(Instant.now()))))
                                .map(ignored -> Optional.of(erased)))));
    }

    /** Every feature over every generation; a table's count is the most any generation held of it. */
    private Uni<Map<String, Long>> erase(SqlClient tx, Erasable.Scope scope) {
        Map<String, Long> most = new TreeMap<>();
        return generations.existing(tx).chain(models -> {
            Uni<Void> chain = Uni.createFrom().voidItem();
            for (ReadModel model : models) {
                Map<String, Long> erased = new TreeMap<>();
                for (Erasable feature : features) {
                    chain = chain.chain(() -> feature.erase(tx, model, scope, erased));
                }
                chain = chain.invoke(() -> erased.forEach((table, n) -> most.merge(table, n, Math::max)));
            }
            return chain.map(ignored -> most);
        });
    }
}
