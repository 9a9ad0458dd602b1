package dev.hindsight.query.readmodel;

import dev.hindsight.platform.consumer.LedgerPruning;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.List;

/**
 * query-service's consumer ledgers kept to the deduplication window: each read-model generation's own (that a rebuild
 * writes too) and the platform's. Receipts are read from the current generation's ledger, so an event projected
 * longer ago than the window reads as pending again (query-service/README.md § Receipts).
 */
@Singleton
class GenerationLedgers extends LedgerPruning {

    private final Pool pool;
    private final Generations generations;

    GenerationLedgers(Pool pool, Vertx vertx, Generations generations) {
        super(pool, vertx);
        this.pool = pool;
        this.generations = generations;
    }

    @Override
    protected Uni<List<String>> tables() {
        return generations.existing(pool).map(models -> {
            List<String> tables = new ArrayList<>();
            tables.add("processed_event");
            models.forEach(model -> tables.add(model.sql("{rm}.processed_event")));
            return tables;
        });
    }
}
