package dev.hindsight.query.memory;

import dev.hindsight.memorymodel.embedding.OnnxEmbedder;
import dev.hindsight.memorymodel.search.SearchModel;
import dev.hindsight.platform.work.BackgroundWork;
import dev.hindsight.query.readmodel.Generations;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Which model the console's memory search uses (design.md § Re-embedding), decided as memory-service decides it, from
 * the current read-model generation's vectors: the model covering the most memories, the configured one on a tie.
 * While memory-service builds a new model's vectors they arrive here as MemoryEmbedded events, and the console
 * switches when they cover every memory; a while later ({@code retire-after}) the previous model's vectors are
 * deleted from the read model, as memory-service deletes them from its own.
 */
@Singleton
public class MemoryVectors extends BackgroundWork {

    private static final Logger LOG = Logger.getLogger(MemoryVectors.class);
    private static final int RETIRE_BATCH = 5_000;

    private final Pool pool;
    private final Generations generations;
    private final Duration retireAfter;
    private final SearchModel model;

    public MemoryVectors(Pool pool, Generations generations, Vertx vertx,
            @ConfigProperty(name = "hindsight.memory.embedding.model",
                    defaultValue = OnnxEmbedder.MINILM) String configured,
            @ConfigProperty(name = "hindsight.memory.embedding.check-every", defaultValue = "10s") Duration checkEvery,
            @ConfigProperty(name = "hindsight.memory.embedding.retire-after", defaultValue = "1m") Duration retireAfter) {
        super(vertx, checkEvery, "Reading the memory vectors' models", true);
        this.pool = pool;
        this.generations = generations;
        this.retireAfter = retireAfter;
        // Checked at start-up: the model itself is loaded on the first search, and a typo must not wait for it.
        this.model = new SearchModel(OnnxEmbedder.requireShipped(configured), Clock.systemUTC());
    }

    /** The model searches embed their query with and compare vectors of. */
    public String searchModel() {
        return model.current();
    }

    /** Re-reads the counts now (tests; the rounds do it every {@code check-every}). */
    public Uni<SearchModel.State> refresh() {
        return generations.current().chain(rm -> pool.query(rm.sql(
                        "SELECT model_id, count(*) FROM {rm}.memory_vector /* every tenant: the models' coverage */ GROUP BY model_id")).execute()
                .chain(rows -> {
                    Map<String, Long> vectors = new HashMap<>();
                    for (Row row : rows) {
                        vectors.put(row.getString(0), row.getLong(1));
                    }
                    return pool.query(rm.sql("SELECT count(*) FROM {rm}.memory /* every tenant */")).execute().map(counted -> {
                        long memories = counted.iterator().next().getLong(0);
                        String before = model.current();
                        if (model.update(memories, vectors)) {
                            LOG.infof("The console's memory search now uses embedding model %s instead of %s "
                                    + "(%d memories; vectors per model: %s)", model.current(), before, memories, vectors);
                        }
                        return model.state();
                    });
                }));
    }

    @Override
    protected Uni<Boolean> oneRound() {
        return refresh().chain(state -> {
            if (!model.mayRetireOthers(retireAfter)) {
                return Uni.createFrom().item(false);
            }
            return generations.current().chain(rm -> pool.preparedQuery(rm.sql("""
                            DELETE FROM {rm}.memory_vector /* every tenant: retiring a model */
                            WHERE (tenant_id, memory_id, model_id) IN (
                                SELECT tenant_id, memory_id, model_id FROM {rm}.memory_vector
                                WHERE model_id <> $1 LIMIT $2)""")).execute(Tuple.of(state.current(), RETIRE_BATCH)))
                    .map(deleted -> {
                        LOG.infof("Deleted %d memory vectors of models the console's search no longer uses",
                                deleted.rowCount());
                        return deleted.rowCount() == RETIRE_BATCH;
                    });
        });
    }
}
