package dev.hindsight.evaluation;

import dev.hindsight.platform.consumer.LedgerPruning;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.inject.Singleton;

/** evaluation-service's consumer ledger, kept to the deduplication window (design.md § Delivery guarantees). */
@Singleton
class EvaluationLedger extends LedgerPruning {

    EvaluationLedger(Pool pool, Vertx vertx) {
        super(pool, vertx);
    }
}
