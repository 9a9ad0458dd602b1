-- Receipts now find an event in the ledger by its primary key (consumer, event_id), one probe per projection, so the
-- second index on (tenant_id, event_id) goes: every projected event paid for inserting into it at a random place
-- (event ids are name-based UUIDs), about a third of the ledger's cost (docs/benchmarks.md). Generations are copies of
-- rm_template (CREATE TABLE ... LIKE ... INCLUDING ALL, which names the copied index itself), so the index is found
-- by its columns in rm_template and in every generation that exists.
DO $$
DECLARE
    ix record;
BEGIN
    FOR ix IN
        SELECT n.nspname AS schema_name, c.relname AS index_name
        FROM pg_index i
        JOIN pg_class c ON c.oid = i.indexrelid
        JOIN pg_class t ON t.oid = i.indrelid
        JOIN pg_namespace n ON n.oid = t.relnamespace
        WHERE t.relname = 'processed_event' AND (n.nspname = 'rm_template' OR n.nspname ~ '^rm_[0-9]+$')
          AND NOT i.indisprimary
          AND pg_get_indexdef(i.indexrelid) LIKE '%(tenant_id, event_id)'
    LOOP
        EXECUTE format('DROP INDEX %I.%I', ix.schema_name, ix.index_name);
    END LOOP;
END $$;
