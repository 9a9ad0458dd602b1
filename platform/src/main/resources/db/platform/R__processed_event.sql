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

-- Receipts: GET /v1/receipts/{event_id} answers from this ledger, only to the event's own tenant.
ALTER TABLE processed_event ADD COLUMN IF NOT EXISTS tenant_id TEXT;
CREATE INDEX IF NOT EXISTS processed_event_by_tenant ON processed_event (tenant_id, event_id);
