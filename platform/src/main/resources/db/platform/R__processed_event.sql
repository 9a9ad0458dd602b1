-- Idempotent-consumer ledger shared by every projecting service (dev.hindsight.platform.consumer.ProcessedEvents).
-- A repeatable migration with idempotent DDL: Flyway re-applies it whenever this file changes, after the service's
-- own versioned migrations, so the platform can evolve it without taking version numbers from any service.
-- Only ever add to it in ways that are safe to run again (IF NOT EXISTS).
CREATE TABLE IF NOT EXISTS processed_event (
    consumer     TEXT        NOT NULL,
    event_id     UUID        NOT NULL,
    processed_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (consumer, event_id)
);

-- The event's tenant, so that a ledger read (query-service's receipts) answers only to that tenant.
ALTER TABLE processed_event ADD COLUMN IF NOT EXISTS tenant_id TEXT;
-- No index on (tenant_id, event_id): nothing looks events up without their consumer, and inserting every event id at a
-- random place of a second index was about a third of the ledger's cost (docs/benchmarks.md).
DROP INDEX IF EXISTS processed_event_by_tenant;

-- The ledger is pruned to the deduplication window (LedgerPruning) by claim time. A BRIN index finds the old rows
-- without a scan of the whole ledger and costs an insert almost nothing: rows are claimed in time order.
CREATE INDEX IF NOT EXISTS processed_event_by_time ON processed_event USING brin (processed_at);
