-- Erasure (issue #48, ADR 0028): what memory-service needs to erase a session, a person or a tenant everywhere.

-- Where each part of a memory's current text came from: the sessions of the event that last set it (its
-- MemoryRecorded for the title, which no merge changes; the MemoryMerged that replaced the description or the content,
-- else the MemoryRecorded). A memory whose current text came from an erased session is deleted; one that only counts
-- an erased session among its sources survives without it. Memories recorded before this migration did not keep it:
-- any of their sources may have written any part, so each part is attributed to all of them.
ALTER TABLE memory ADD COLUMN title_session_ids TEXT[];
ALTER TABLE memory ADD COLUMN description_session_ids TEXT[];
ALTER TABLE memory ADD COLUMN content_session_ids TEXT[];
UPDATE memory SET title_session_ids = source_session_ids, description_session_ids = source_session_ids,
                  content_session_ids = source_session_ids;
ALTER TABLE memory ALTER COLUMN title_session_ids SET NOT NULL, ALTER COLUMN title_session_ids SET DEFAULT '{}',
                   ALTER COLUMN description_session_ids SET NOT NULL,
                   ALTER COLUMN description_session_ids SET DEFAULT '{}',
                   ALTER COLUMN content_session_ids SET NOT NULL, ALTER COLUMN content_session_ids SET DEFAULT '{}';
-- How the memory was first recorded (rest, mcp, distiller), which a MemoryRestated carries on; null before.
ALTER TABLE memory ADD COLUMN via TEXT;
CREATE INDEX memory_by_source_session ON memory USING gin (source_session_ids);

-- The rollup keeps who gave a signal: one aggregate row per memory and session ('' for signals that named none), so
-- that erasing a session subtracts what it contributed to a confidence even after its signals were rolled up.
-- Signals rolled up before this migration were folded without their session: they stay under ''.
ALTER TABLE memory_signal_aggregate ADD COLUMN session_id TEXT NOT NULL DEFAULT '';
ALTER TABLE memory_signal_aggregate DROP CONSTRAINT memory_signal_aggregate_pkey;
ALTER TABLE memory_signal_aggregate ADD PRIMARY KEY (memory_id, session_id);
-- No index on memory_signal by session: every search writes its rows, and an erasure, which is rare, scans them.
CREATE INDEX memory_signal_aggregate_by_session ON memory_signal_aggregate (session_id) WHERE session_id <> '';

-- The sessions a deleted memory's events came from (its sources and where its text came from): its events stay on the
-- log, sealed under keys nobody destroyed, so erasing one of those sessions later must still find its keys. Written
-- by the projection as it deletes (and so again by a rebuild); an erasure that destroys the keys deletes the row.
CREATE TABLE deleted_memory (
    tenant_id   TEXT        NOT NULL,
    memory_id   UUID        NOT NULL,
    session_ids TEXT[]      NOT NULL,
    deleted_at  TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (tenant_id, memory_id)
);
CREATE INDEX deleted_memory_by_session ON deleted_memory USING gin (session_ids);

-- Each erasure this service applied, without content: claimed in the transaction that applies it (a replica that
-- finds it claimed does nothing), with what it deleted (counts) and the data keys it destroyed (ids), which the other
-- replicas drop from their caches. Kept forever; an erasure missing here (a database restored from an older backup)
-- is applied again from the erasure log at the next start.
CREATE TABLE erasure (
    erasure_id     TEXT        PRIMARY KEY,
    tenant_id      TEXT        NOT NULL,
    selector       TEXT        NOT NULL,
    requested_at   TIMESTAMPTZ NOT NULL,
    applied_at     TIMESTAMPTZ NOT NULL DEFAULT now(),
    erased         JSONB       NOT NULL DEFAULT '{}'::jsonb,
    destroyed_keys TEXT[]      NOT NULL DEFAULT '{}'
);

-- What an erasure looks up by session in the service's own state.
CREATE INDEX session_memory_use_by_memory ON session_memory_use (tenant_id, memory_id);
