package dev.hindsight.memory;

import dev.hindsight.platform.consumer.LedgerPruning;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.inject.Singleton;

/** memory-service's consumer ledger, kept to the deduplication window (design.md § Delivery guarantees). */
@Singleton
class MemoryLedger extends LedgerPruning {

    MemoryLedger(Pool pool, Vertx vertx) {
        super(pool, vertx);
    }
}
