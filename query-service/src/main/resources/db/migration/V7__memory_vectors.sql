-- A memory's vectors move to their own table, one per embedding model: while memory-service builds a new model's
-- generation (design.md § Re-embedding) a memory has two, and the console searches with the model that covers every
-- memory, as memory-service does. Existing vectors move over; nothing is embedded again.
CREATE TABLE rm_template.memory_vector (
    tenant_id  TEXT        NOT NULL,
    memory_id  UUID        NOT NULL,
    project_id TEXT        NOT NULL,
    model_id   TEXT        NOT NULL,
    embedding  vector(384) NOT NULL,
    PRIMARY KEY (tenant_id, memory_id, model_id)
);
CREATE INDEX memory_vector_nearest ON rm_template.memory_vector USING hnsw (embedding vector_cosine_ops);

ALTER TABLE rm_template.memory DROP COLUMN model_id, DROP COLUMN embedding;

DO $$
DECLARE
    g RECORD;
BEGIN
    FOR g IN SELECT generation FROM read_model_generation WHERE dropped_at IS NULL LOOP
        EXECUTE format('CREATE TABLE IF NOT EXISTS rm_%s.memory_vector (LIKE rm_template.memory_vector INCLUDING ALL)',
                       g.generation);
        EXECUTE format('INSERT INTO rm_%1$s.memory_vector (tenant_id, memory_id, project_id, model_id, embedding) '
                       'SELECT tenant_id, memory_id, project_id, model_id, embedding FROM rm_%1$s.memory '
                       'ON CONFLICT DO NOTHING', g.generation);
        EXECUTE format('ALTER TABLE rm_%s.memory DROP COLUMN model_id, DROP COLUMN embedding', g.generation);
    END LOOP;
END $$;
