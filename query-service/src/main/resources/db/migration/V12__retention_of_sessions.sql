-- Retention finds sessions idle longer than their tenant's age by their last event's time (IdleSessions, ADR 0029).
-- New generations copy rm_template's indexes (CREATE TABLE ... LIKE ... INCLUDING ALL); existing ones get it here.
DO $$
DECLARE
    s record;
BEGIN
    FOR s IN
        SELECT n.nspname AS schema_name
        FROM pg_class t JOIN pg_namespace n ON n.oid = t.relnamespace
        WHERE t.relname = 'session' AND t.relkind = 'r' AND (n.nspname = 'rm_template' OR n.nspname ~ '^rm_[0-9]+$')
    LOOP
        EXECUTE format('CREATE INDEX IF NOT EXISTS session_by_last_event ON %I.session (last_event_at)',
                s.schema_name);
    END LOOP;
END $$;

-- Retention's erasures are recorded like the others, with their own selector.
ALTER TABLE erasure DROP CONSTRAINT erasure_selector_check;
ALTER TABLE erasure ADD CONSTRAINT erasure_selector_check
    CHECK (selector IN ('SESSIONS', 'SUBJECT', 'TENANT', 'RETENTION'));
