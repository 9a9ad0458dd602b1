-- Sessions and their conversation (seeds 000, 001), projected from hindsight.reasoning.v1.
-- Every row belongs to a tenant; every read filters on it first.

CREATE TABLE session (
    tenant_id      TEXT        NOT NULL,
    session_id     TEXT        NOT NULL,
    -- NULL until SessionStarted is projected: a message can arrive for a session whose start is not known yet.
    kind           TEXT        CHECK (kind IN ('trading', 'chat', 'debug')),
    started_at     TIMESTAMPTZ,
    completed_at   TIMESTAMPTZ,
    outcome        TEXT        CHECK (outcome IN ('success', 'failure', 'unknown')),
    job_id         TEXT,
    trading_date   DATE,
    model          TEXT,
    attributes     JSONB       NOT NULL DEFAULT '{}'::jsonb,
    labels         JSONB       NOT NULL DEFAULT '{}'::jsonb,
    total_messages INTEGER     NOT NULL DEFAULT 0,
    last_event_at  TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (tenant_id, session_id)
);

-- GET /reasoning filters (seed 000: job_id, date, model) and newest-first listing.
CREATE INDEX session_by_trading_day ON session (tenant_id, trading_date, model);
CREATE INDEX session_by_job ON session (tenant_id, job_id);
CREATE INDEX session_by_start ON session (tenant_id, started_at DESC);

CREATE TABLE message (
    tenant_id        TEXT        NOT NULL,
    session_id       TEXT        NOT NULL,
    message_index    INTEGER     NOT NULL,
    role             TEXT        NOT NULL CHECK (role IN ('user', 'assistant', 'tool')),
    content          TEXT        NOT NULL,
    tool_name        TEXT,
    tool_input       TEXT,
    occurred_at      TIMESTAMPTZ NOT NULL,
    -- Seed 001: the ordered steps, kept as one array so a session reloads in one query with its exact order.
    thinking_steps   JSONB       NOT NULL DEFAULT '[]'::jsonb,
    legacy_reasoning TEXT,
    legacy_tools     JSONB,
    event_id         UUID        NOT NULL,
    -- Seed 000: UNIQUE(session_id, message_index); the first event for an index wins.
    PRIMARY KEY (tenant_id, session_id, message_index)
);
