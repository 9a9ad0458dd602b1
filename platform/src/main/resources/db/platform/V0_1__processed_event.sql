-- Idempotent-consumer ledger shared by every projecting service (dev.hindsight.platform.consumer.ProcessedEvents).
CREATE TABLE processed_event (
    consumer     TEXT        NOT NULL,
    event_id     UUID        NOT NULL,
    processed_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (consumer, event_id)
);
