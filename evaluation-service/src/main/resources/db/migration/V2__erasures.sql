-- Erasure (ADR 0028, issue #48). Each erasure applied to this database: its id, its tenant, when, and how many rows
-- of each table it deleted; ids and counts only, never content. It is the claim that applies an erasure once: a
-- replica, or a restart, that finds the erasure here does nothing, and one missing here (a database restored from a
-- backup older than it) gets it again from the erasure log at the next start. Kept forever, a tenant-wide erasure
-- included; read by no one but evaluation-service (the counts are said on the erasure log).
CREATE TABLE erasure_applied (
    erasure_id TEXT        PRIMARY KEY,
    tenant_id  TEXT        NOT NULL,
    applied_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    erased     JSONB       NOT NULL DEFAULT '{}'   -- rows deleted by table, e.g. {"session_message": 12}
);

-- An erasure of sessions deletes their decision sets, which no other index reaches by session.
CREATE INDEX decision_set_by_session ON decision_set_state (tenant_id, session_id);

-- Each outbox row's tenant, so that an erasure deletes the unpublished events of its own tenant and no other's
-- (record keys are the producers' session and message ids, unique only within a tenant). Null on rows written by the
-- previous version (a replica still running it during a rolling update): the erasure reads their tenant from their
-- envelope. No index: the relay empties the table within moments, so a scan of it is cheaper than an index every
-- event would pay for.
ALTER TABLE outbox ADD COLUMN tenant_id TEXT;
