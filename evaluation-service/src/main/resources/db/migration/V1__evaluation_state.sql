-- evaluation-service's own state, a projection of the source topics it needs to judge (ADR 0006). Everything here
-- can be rebuilt from Kafka; what it decided is published as events, through the outbox, and never recomputed.

-- What a summary or a judgement needs to know about a session.
CREATE TABLE session_state (
    tenant_id        TEXT NOT NULL,
    session_id       TEXT NOT NULL,
    kind             TEXT,                 -- trading | chat | debug (null until SessionStarted is seen)
    title            TEXT,                 -- "gpt-5 on 2025-10-02", a chat title, a debug task id
    task_description TEXT,
    completed_at     TIMESTAMPTZ,
    outcome          TEXT,
    final_code_diff  TEXT,
    summary_hint     TEXT,
    PRIMARY KEY (tenant_id, session_id)
);

CREATE TABLE session_message (
    tenant_id     TEXT NOT NULL,
    session_id    TEXT NOT NULL,
    message_index INT  NOT NULL,
    role          TEXT NOT NULL,
    content       TEXT NOT NULL,
    occurred_at   TIMESTAMPTZ NOT NULL,
    -- Ordered thinking steps flattened for the judge of a non-debug session (JSON array of trace steps).
    steps         JSONB,
    PRIMARY KEY (tenant_id, session_id, message_index)
);

-- A trading session's positions as short facts ("buy 10 NVDA") for its summary.
CREATE TABLE session_action (
    tenant_id   TEXT NOT NULL,
    session_id  TEXT NOT NULL,
    action_id   TEXT NOT NULL,
    description TEXT NOT NULL,
    occurred_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (tenant_id, session_id, action_id)
);

-- A debugging trace's events (seed 003), in the order the judge reads them.
CREATE TABLE session_step (
    tenant_id     TEXT NOT NULL,
    session_id    TEXT NOT NULL,
    step_id       TEXT NOT NULL,
    sequence      INT  NOT NULL,
    occurred_at   TIMESTAMPTZ NOT NULL,
    source_offset BIGINT NOT NULL,
    kind          TEXT NOT NULL CHECK (kind IN ('THOUGHT', 'EDIT', 'COMMAND')),
    text          TEXT,
    file_path     TEXT,
    diff          TEXT,
    command       TEXT,
    exit_code     INT,
    stdout        TEXT,
    stderr        TEXT,
    PRIMARY KEY (tenant_id, session_id, step_id)
);

-- Durable work for summarizers and judges: consumption only records a job, workers run it with retries and back-off,
-- so a slow model never holds up the topic and a restart loses nothing.
CREATE TABLE insight_job (
    tenant_id     TEXT NOT NULL,
    session_id    TEXT NOT NULL,
    kind          TEXT NOT NULL CHECK (kind IN ('message_summary', 'session_summary', 'trace_judgement')),
    message_index INT  NOT NULL DEFAULT -1,
    state         TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'running', 'done', 'failed')),
    attempts      INT  NOT NULL DEFAULT 0,
    due_at        TIMESTAMPTZ NOT NULL DEFAULT now(),
    lease_until   TIMESTAMPTZ,
    last_error    TEXT,
    created_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
    finished_at   TIMESTAMPTZ,
    PRIMARY KEY (tenant_id, session_id, kind, message_index)
);
CREATE INDEX insight_job_due ON insight_job (due_at) WHERE state IN ('pending', 'running');

-- Shadow evaluation (seed 002): decision sets and the signals on their message, joined here so that a restart in the
-- middle of a window changes nothing.
CREATE TABLE decision_set_state (
    tenant_id                TEXT NOT NULL,
    decision_set_id          TEXT NOT NULL,
    message_id               TEXT NOT NULL,
    session_id               TEXT NOT NULL,
    decision_set             JSONB NOT NULL,
    decided_at               TIMESTAMPTZ NOT NULL,  -- event time: the window is [decided_at, decided_at + window)
    received_at              TIMESTAMPTZ NOT NULL DEFAULT now(),
    signal_count             INT NOT NULL DEFAULT 0,
    has_terminal             BOOLEAN NOT NULL DEFAULT false,
    published_revision       INT NOT NULL DEFAULT 0,
    signals_at_last_revision INT NOT NULL DEFAULT 0,
    PRIMARY KEY (tenant_id, decision_set_id)
);
CREATE INDEX decision_set_by_message ON decision_set_state (tenant_id, message_id);
-- Only the sets that may be due: not evaluated yet, or with signals newer than their last revision.
CREATE INDEX decision_set_open ON decision_set_state (decided_at)
    WHERE published_revision = 0 OR signal_count > signals_at_last_revision;

CREATE TABLE behavior_signal (
    tenant_id        TEXT NOT NULL,
    event_id         UUID NOT NULL,
    message_id       TEXT NOT NULL,
    signal_type      TEXT NOT NULL,
    occurred_at      TIMESTAMPTZ NOT NULL,
    requested_action TEXT,
    user_action      TEXT,
    thumbs_up        BOOLEAN,
    violation_type   TEXT,
    PRIMARY KEY (tenant_id, event_id)
);
CREATE INDEX behavior_signal_by_message ON behavior_signal (tenant_id, message_id);

-- Transactional outbox: a judgement is written here in the same transaction as the state that decided it, and a relay
-- publishes it; a crash between the two publishes it later instead of losing it. Event ids are derived from what was
-- judged, so a row published twice is one event to every consumer.
CREATE TABLE outbox (
    id         BIGSERIAL PRIMARY KEY,
    topic      TEXT  NOT NULL,
    record_key TEXT  NOT NULL,
    event_id   UUID  NOT NULL,
    envelope   BYTEA NOT NULL,   -- Avro binary of the topic's envelope
    created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
