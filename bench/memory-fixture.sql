-- Expands a project recorded through the API (bench/MemoryLatency.java load) to about 100,000 memories for the
-- search benchmark, directly in memory-service's database: each recorded memory gets COPIES neighbours whose vectors
-- blend its own embedding with another recorded memory's (up to a third of the way) plus Gaussian-ish noise,
-- re-normalised, so the index holds a continuum shaped like real text embeddings rather than islands of near-copies
-- (an island larger than an HNSW node's 32 neighbours traps an index walk, which real memories do not do: the
-- distiller merges drafts 0.9 alike). Recording 100,000 memories through the API, at one in-process embedding each,
-- takes over an hour on 2 cores. Benchmark data only: these rows are not on hindsight.memory.v1.
--   psql -h 127.0.0.1 -U postgres -d hindsight_memory -v project=bench100k -v copies=42 -f bench/memory-fixture.sql
\set ON_ERROR_STOP on
BEGIN;
CREATE TEMP TABLE sources ON COMMIT DROP AS
SELECT row_number() OVER () AS n, m.id
FROM memory m
WHERE m.project_id = :'project' AND m.origin = 'explicit' AND m.title NOT LIKE '% copy %';
-- Each copy's other memory: any source but its own, at random.
CREATE TEMP TABLE copies ON COMMIT DROP AS
SELECT gen_random_uuid() AS id, s.id AS source, 1 + (s.n + floor(random() * (t.total - 1))::bigint) % t.total AS other,
       g AS n, (random() / 3)::real AS blend
FROM sources s CROSS JOIN generate_series(1, :copies) g CROSS JOIN (SELECT count(*) AS total FROM sources) t;
INSERT INTO memory (id, tenant_id, project_id, origin, title, description, content, outcome, tags,
                    source_session_ids, recorded_at, created_at, updated_at)
SELECT c.id, m.tenant_id, m.project_id, m.origin, m.title || ' copy ' || c.n, m.description, m.content, m.outcome,
       m.tags, m.source_session_ids, m.recorded_at, m.created_at, m.updated_at
FROM copies c JOIN memory m ON m.id = c.source;
INSERT INTO memory_vector (memory_id, tenant_id, project_id, model_id, embedding)
SELECT c.id, v.tenant_id, v.project_id, v.model_id,
       l2_normalize(v.embedding * array_fill(1 - c.blend, ARRAY[384])::vector
                    + w.embedding * array_fill(c.blend, ARRAY[384])::vector
                    + (SELECT array_agg((random() + random() + random() - 1.5) * 0.05)
                       FROM generate_series(1, 384) WHERE c.id IS NOT NULL)::vector)
FROM copies c JOIN memory_vector v ON v.memory_id = c.source
JOIN sources o ON o.n = c.other
JOIN memory_vector w ON w.memory_id = o.id AND w.model_id = v.model_id;
COMMIT;
ANALYZE memory;
ANALYZE memory_vector;
SELECT count(*) AS memories FROM memory WHERE project_id = :'project';
