-- Each generation's ledger is pruned to the deduplication window by claim time (GenerationLedgers). A BRIN index finds
-- the old rows without a scan of the whole ledger and costs an insert almost nothing: rows are claimed in time order.
-- New generations copy rm_template's indexes (CREATE TABLE ... LIKE ... INCLUDING ALL); existing ones get it here.
DO $$
DECLARE
    s record;
BEGIN
    FOR s IN
        SELECT n.nspname AS schema_name
        FROM pg_class t JOIN pg_namespace n ON n.oid = t.relnamespace
        WHERE t.relname = 'processed_event' AND (n.nspname = 'rm_template' OR n.nspname ~ '^rm_[0-9]+$')
    LOOP
        EXECUTE format('CREATE INDEX IF NOT EXISTS processed_event_by_time ON %I.processed_event USING brin (processed_at)',
                s.schema_name);
    END LOOP;
END $$;
