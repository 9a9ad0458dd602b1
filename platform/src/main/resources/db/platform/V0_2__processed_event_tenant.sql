-- Receipts: GET /v1/receipts/{event_id} answers from this ledger, only to the event's own tenant.
ALTER TABLE processed_event ADD COLUMN tenant_id TEXT;
CREATE INDEX processed_event_by_tenant ON processed_event (tenant_id, event_id);
