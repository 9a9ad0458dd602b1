-- memory-service's database: a projection of hindsight.memory.v1 (memories, vectors, signals, learned weights),
-- plus what it keeps from hindsight.reasoning.v1 and hindsight.insights.v1 to distil sessions and attribute outcomes.
-- Creating the extension needs a superuser: provisioning does it (deploy/local/postgres.sh, the CNPG cluster's
-- bootstrap); here it is a no-op that documents the dependency (and creates it where the migration runs as one).
CREATE EXTENSION IF NOT EXISTS vector;

CREATE TABLE memory (
    id                 UUID        PRIMARY KEY,
    tenant_id          TEXT        NOT NULL,
    project_id         TEXT        NOT NULL,
    origin             TEXT        NOT NULL CHECK (origin IN ('explicit', 'distilled')),
    title              TEXT        NOT NULL,
    description        TEXT,
    content            TEXT        NOT NULL,
    outcome            TEXT        NOT NULL CHECK (outcome IN ('success', 'failure')),
    tags               TEXT[]      NOT NULL DEFAULT '{}',
    source_session_ids TEXT[]      NOT NULL DEFAULT '{}',
    -- Signal totals (individual recent signals + rolled-up aggregate), kept in the same transaction as the signal
    -- rows so confidence is one row read; the rollup moves rows between the two and never changes these.
    explicit_positive  BIGINT      NOT NULL DEFAULT 0,
    explicit_negative  BIGINT      NOT NULL DEFAULT 0,
    usage_count        BIGINT      NOT NULL DEFAULT 0,
    outcome_positive   BIGINT      NOT NULL DEFAULT 0,
    outcome_negative   BIGINT      NOT NULL DEFAULT 0,
    -- header.recorded_at of the MemoryRecorded event: a ProjectPurged removes memories recorded at or before it.
    recorded_at        TIMESTAMPTZ NOT NULL,
    created_at         TIMESTAMPTZ NOT NULL,
    updated_at         TIMESTAMPTZ NOT NULL
);
CREATE INDEX memory_by_project ON memory (tenant_id, project_id, created_at DESC, id DESC);

-- The pgvector store (dev.hindsight.memory.store.PgVectorStore): a derived index of memory, cosine HNSW.
CREATE TABLE memory_vector (
    memory_id  UUID        PRIMARY KEY,
    tenant_id  TEXT        NOT NULL,
    project_id TEXT        NOT NULL,
    model_id   TEXT        NOT NULL,
    embedding  vector(384) NOT NULL
);
CREATE INDEX memory_vector_hnsw ON memory_vector USING hnsw (embedding vector_cosine_ops);
CREATE INDEX memory_vector_by_project ON memory_vector (tenant_id, project_id);

-- Hybrid signal storage (seed 004 FR-005c): the last 30 days individually, older ones rolled up per memory.
CREATE TABLE memory_signal (
    event_id    UUID        PRIMARY KEY,
    memory_id   UUID        NOT NULL REFERENCES memory (id) ON DELETE CASCADE,
    kind        TEXT        NOT NULL CHECK (kind IN ('explicit', 'usage', 'outcome')),
    positive    BOOLEAN     NOT NULL,
    session_id  TEXT,
    source      TEXT        NOT NULL,
    recorded_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX memory_signal_by_memory ON memory_signal (memory_id, recorded_at);
CREATE INDEX memory_signal_by_age ON memory_signal (recorded_at);

CREATE TABLE memory_signal_aggregate (
    memory_id         UUID        PRIMARY KEY REFERENCES memory (id) ON DELETE CASCADE,
    explicit_positive BIGINT      NOT NULL DEFAULT 0,
    explicit_negative BIGINT      NOT NULL DEFAULT 0,
    usage_count       BIGINT      NOT NULL DEFAULT 0,
    outcome_positive  BIGINT      NOT NULL DEFAULT 0,
    outcome_negative  BIGINT      NOT NULL DEFAULT 0,
    rolled_up_until   TIMESTAMPTZ NOT NULL
);

-- Learned signal weights per project (seed 004 FR-005a): Beta(alpha, beta) per signal kind; absent = the priors.
CREATE TABLE project_weights (
    tenant_id      TEXT             NOT NULL,
    project_id     TEXT             NOT NULL,
    explicit_alpha DOUBLE PRECISION NOT NULL,
    explicit_beta  DOUBLE PRECISION NOT NULL,
    usage_alpha    DOUBLE PRECISION NOT NULL,
    usage_beta     DOUBLE PRECISION NOT NULL,
    outcome_alpha  DOUBLE PRECISION NOT NULL,
    outcome_beta   DOUBLE PRECISION NOT NULL,
    updated_at     TIMESTAMPTZ      NOT NULL,
    PRIMARY KEY (tenant_id, project_id)
);

CREATE TABLE project_purge (
    tenant_id     TEXT        NOT NULL,
    project_id    TEXT        NOT NULL,
    purged_before TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (tenant_id, project_id)
);

-- Which memories a session retrieved (usage signals carrying a session id): a session's outcome or QA verdict
-- becomes an outcome signal for each of them.
CREATE TABLE session_memory_use (
    tenant_id  TEXT        NOT NULL,
    session_id TEXT        NOT NULL,
    memory_id  UUID        NOT NULL,
    first_used TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (tenant_id, session_id, memory_id)
);

-- Sessions as the distiller needs them, from hindsight.reasoning.v1 and hindsight.insights.v1.
CREATE TABLE tracked_session (
    tenant_id        TEXT        NOT NULL,
    session_id       TEXT        NOT NULL,
    project_id       TEXT,
    kind             TEXT,
    model            TEXT,
    task             TEXT,
    started_at       TIMESTAMPTZ,
    completed_at     TIMESTAMPTZ,
    outcome          TEXT,
    final_code_diff  TEXT,
    judge_requested  BOOLEAN     NOT NULL DEFAULT false,
    summary          TEXT,
    summary_done     BOOLEAN     NOT NULL DEFAULT false,
    judge_score      INT,
    judge_rubric     JSONB,
    judge_done       BOOLEAN     NOT NULL DEFAULT false,
    PRIMARY KEY (tenant_id, session_id)
);

CREATE TABLE tracked_turn (
    tenant_id     TEXT  NOT NULL,
    session_id    TEXT  NOT NULL,
    message_index INT   NOT NULL,
    role          TEXT  NOT NULL,
    content       TEXT,
    steps         JSONB NOT NULL DEFAULT '[]',
    PRIMARY KEY (tenant_id, session_id, message_index)
);

CREATE TABLE tracked_activity (
    tenant_id  TEXT        NOT NULL,
    session_id TEXT        NOT NULL,
    event_id   UUID        NOT NULL,
    occurred_at TIMESTAMPTZ NOT NULL,
    type       TEXT        NOT NULL,
    content    TEXT,
    exit_code  INT,
    output     TEXT,
    PRIMARY KEY (tenant_id, session_id, event_id)
);

-- Durable work: distil a completed session; turn a session's outcome or verdict into outcome signals.
CREATE TABLE memory_job (
    tenant_id  TEXT        NOT NULL,
    session_id TEXT        NOT NULL,
    kind       TEXT        NOT NULL CHECK (kind IN ('distill', 'session_outcome', 'qa_judge')),
    due_at     TIMESTAMPTZ NOT NULL,
    attempts   INT         NOT NULL DEFAULT 0,
    last_error TEXT,
    done_at    TIMESTAMPTZ,
    PRIMARY KEY (tenant_id, session_id, kind)
);
CREATE INDEX memory_job_due ON memory_job (due_at) WHERE done_at IS NULL;
