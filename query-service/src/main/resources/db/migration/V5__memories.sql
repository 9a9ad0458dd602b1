-- The ReasoningBank in the read models, for the console's memory pages: a projection of hindsight.memory.v1, which
-- memory-service alone writes. Added to rm_template and to every generation that still exists, so the current one
-- starts filling as soon as the memories channel consumes (and a rebuild replays the topic from its start).
--
-- Memories are searched as memory-service searches them, by their embedding with pgvector's cosine distance. The
-- vectors come with the events (model output is an event: nothing is embedded again here). Creating the extension
-- needs a superuser: provisioning does it (deploy/local/postgres.sh, the CNPG Database resource); here it is a no-op
-- that documents the dependency (and creates it where the migration runs as one, as in the tests).
CREATE EXTENSION IF NOT EXISTS vector;

CREATE TABLE rm_template.memory (
    tenant_id          TEXT        NOT NULL,
    memory_id          UUID        NOT NULL,
    project_id         TEXT        NOT NULL,
    origin             TEXT        NOT NULL CHECK (origin IN ('explicit', 'distilled')),
    title              TEXT        NOT NULL,
    description        TEXT,
    content            TEXT        NOT NULL,
    outcome            TEXT        NOT NULL CHECK (outcome IN ('success', 'failure')),
    tags               TEXT[]      NOT NULL,
    source_session_ids TEXT[]      NOT NULL,
    via                TEXT        NOT NULL,
    -- Every signal ever recorded, counted when its row is inserted (so a signal counts once, whatever redelivers it).
    explicit_positive  BIGINT      NOT NULL DEFAULT 0,
    explicit_negative  BIGINT      NOT NULL DEFAULT 0,
    usage_count        BIGINT      NOT NULL DEFAULT 0,
    outcome_positive   BIGINT      NOT NULL DEFAULT 0,
    outcome_negative   BIGINT      NOT NULL DEFAULT 0,
    model_id           TEXT        NOT NULL,
    embedding          vector(384) NOT NULL,
    -- header.recorded_at of the MemoryRecorded event: a ProjectPurged removes memories recorded at or before it.
    recorded_at        TIMESTAMPTZ NOT NULL,
    updated_at         TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (tenant_id, memory_id)
);
CREATE INDEX memory_newest ON rm_template.memory (tenant_id, project_id, recorded_at DESC, memory_id DESC);
CREATE INDEX memory_nearest ON rm_template.memory USING hnsw (embedding vector_cosine_ops);

-- Each signal, for a memory's history; its event id makes a redelivered signal a no-op.
CREATE TABLE rm_template.memory_signal (
    tenant_id   TEXT        NOT NULL,
    event_id    UUID        NOT NULL,
    memory_id   UUID        NOT NULL,
    kind        TEXT        NOT NULL CHECK (kind IN ('explicit', 'usage', 'outcome')),
    positive    BOOLEAN     NOT NULL,
    session_id  TEXT,
    source      TEXT        NOT NULL,
    occurred_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (tenant_id, event_id)
);
CREATE INDEX memory_signal_history ON rm_template.memory_signal (tenant_id, memory_id, occurred_at DESC);
-- Retention (hindsight.query.retention.memory-signals) deletes old rows; the totals in memory keep counting them.
CREATE INDEX memory_signal_by_age ON rm_template.memory_signal (occurred_at);

-- Each distilled near-duplicate merged into a memory instead of being added.
CREATE TABLE rm_template.memory_merge (
    tenant_id         TEXT             NOT NULL,
    event_id          UUID             NOT NULL,
    memory_id         UUID             NOT NULL,
    merged_session_id TEXT,
    similarity        DOUBLE PRECISION NOT NULL,
    merged_at         TIMESTAMPTZ      NOT NULL,
    PRIMARY KEY (tenant_id, event_id)
);
CREATE INDEX memory_merge_by_memory ON rm_template.memory_merge (tenant_id, memory_id, merged_at);

-- A project's learned signal weights (seed 004 LearnFromFeedback), from the votes explicit feedback carries.
CREATE TABLE rm_template.memory_project_weights (
    tenant_id     TEXT             NOT NULL,
    project_id    TEXT             NOT NULL,
    explicit_alpha DOUBLE PRECISION NOT NULL,
    explicit_beta  DOUBLE PRECISION NOT NULL,
    usage_alpha    DOUBLE PRECISION NOT NULL,
    usage_beta     DOUBLE PRECISION NOT NULL,
    outcome_alpha  DOUBLE PRECISION NOT NULL,
    outcome_beta   DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (tenant_id, project_id)
);

-- The latest purge of a project: memories recorded at or before it are gone, whenever their events arrive.
CREATE TABLE rm_template.memory_project_purge (
    tenant_id     TEXT        NOT NULL,
    project_id    TEXT        NOT NULL,
    purged_before TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (tenant_id, project_id)
);

DO $$
DECLARE
    g RECORD;
BEGIN
    FOR g IN SELECT generation FROM read_model_generation WHERE dropped_at IS NULL LOOP
        EXECUTE format('CREATE TABLE IF NOT EXISTS rm_%s.memory (LIKE rm_template.memory INCLUDING ALL)', g.generation);
        EXECUTE format('CREATE TABLE IF NOT EXISTS rm_%s.memory_signal (LIKE rm_template.memory_signal INCLUDING ALL)', g.generation);
        EXECUTE format('CREATE TABLE IF NOT EXISTS rm_%s.memory_merge (LIKE rm_template.memory_merge INCLUDING ALL)', g.generation);
        EXECUTE format('CREATE TABLE IF NOT EXISTS rm_%s.memory_project_weights (LIKE rm_template.memory_project_weights INCLUDING ALL)', g.generation);
        EXECUTE format('CREATE TABLE IF NOT EXISTS rm_%s.memory_project_purge (LIKE rm_template.memory_project_purge INCLUDING ALL)', g.generation);
    END LOOP;
END $$;
