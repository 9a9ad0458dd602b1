-- Read models live in generations (ADR 0004): schema rm_template holds the shape of every read-model table and is
-- never written; each generation rm_<n> is a copy of it (CREATE TABLE ... LIKE ... INCLUDING ALL) filled from Kafka
-- from offset zero. Readers use the one 'current' generation; a rebuild fills a 'building' one next to it and
-- switches readers over when it has caught up.

CREATE SCHEMA rm_template;

-- V1's tables become the template. Their rows (if any) are dropped: generation 1 is rebuilt from the topics.
ALTER TABLE session SET SCHEMA rm_template;
ALTER TABLE message SET SCHEMA rm_template;
TRUNCATE rm_template.session, rm_template.message;

ALTER TABLE rm_template.session
    -- Newest-first listing key: started_at once known, else when the session was first seen.
    ADD COLUMN listed_at       TIMESTAMPTZ,
    ADD COLUMN final_code_diff TEXT,
    ADD COLUMN summary_hint    TEXT,
    ADD COLUMN judge_requested BOOLEAN NOT NULL DEFAULT false,
    -- Seed 000's session_summary and seed 003's qa_results, filled from evaluation-service's events (#5).
    ADD COLUMN session_summary TEXT,
    ADD COLUMN qa_status       TEXT NOT NULL DEFAULT 'pending' CHECK (qa_status IN ('pending', 'completed', 'failed')),
    ADD COLUMN qa_score        NUMERIC(5, 2),
    ADD COLUMN qa_rubric       JSONB,
    ADD COLUMN qa_reason       TEXT,
    ADD COLUMN qa_judged_at    TIMESTAMPTZ;
DROP INDEX rm_template.session_by_start;
-- GET /v1/sessions: newest first with a (listed_at, session_id) cursor, filtered by kind / model / outcome.
CREATE INDEX session_listing ON rm_template.session (tenant_id, listed_at DESC, session_id DESC);
CREATE INDEX session_by_kind ON rm_template.session (tenant_id, kind, listed_at DESC);
CREATE INDEX session_by_model ON rm_template.session (tenant_id, model, listed_at DESC);
CREATE INDEX session_by_outcome ON rm_template.session (tenant_id, outcome, listed_at DESC);

-- Seed 000's per-message summary (assistant messages), from evaluation-service (#5).
ALTER TABLE rm_template.message ADD COLUMN summary TEXT;

-- Seed 000 positions, linked to their session; action_id is unique per session (the first event wins).
CREATE TABLE rm_template.position (
    tenant_id        TEXT             NOT NULL,
    session_id       TEXT             NOT NULL,
    action_id        INTEGER          NOT NULL,
    action_type      TEXT             NOT NULL,
    symbol           TEXT,
    amount           DOUBLE PRECISION,
    price            DOUBLE PRECISION,
    cash_after       DOUBLE PRECISION,
    portfolio_value  DOUBLE PRECISION,
    daily_profit     DOUBLE PRECISION,
    daily_return_pct DOUBLE PRECISION,
    event_id         UUID             NOT NULL,
    PRIMARY KEY (tenant_id, session_id, action_id)
);

-- Seed 003 trace events (thought_log, file_edit, command_run), in trace order: sequence when the producer gave one,
-- else timestamp, then the Kafka offset they were read at.
CREATE TABLE rm_template.activity (
    tenant_id   TEXT        NOT NULL,
    session_id  TEXT        NOT NULL,
    activity_id TEXT        NOT NULL,
    sequence    INTEGER     NOT NULL,
    occurred_at TIMESTAMPTZ NOT NULL,
    event_type  TEXT        NOT NULL CHECK (event_type IN ('thought_log', 'file_edit', 'command_run')),
    payload     JSONB       NOT NULL,
    source_partition INTEGER NOT NULL,
    source_offset    BIGINT  NOT NULL,
    event_id    UUID        NOT NULL,
    PRIMARY KEY (tenant_id, session_id, activity_id)
);

-- Seed 002 DECISION_SET_CREATED.
CREATE TABLE rm_template.decision_set (
    tenant_id        TEXT        NOT NULL,
    decision_set_id  TEXT        NOT NULL,
    message_id       TEXT        NOT NULL,
    session_id       TEXT        NOT NULL,
    question_text    TEXT        NOT NULL,
    question_hash    BIGINT      NOT NULL,
    active_version   TEXT        NOT NULL,
    shadow_versions  JSONB       NOT NULL,
    active_decision  JSONB       NOT NULL,
    shadow_decisions JSONB       NOT NULL,
    context_snapshot JSONB,
    level            TEXT        NOT NULL,
    occurred_at      TIMESTAMPTZ NOT NULL,
    has_shadow       BOOLEAN     GENERATED ALWAYS AS (jsonb_array_length(shadow_decisions) > 0) STORED,
    event_id         UUID        NOT NULL,
    PRIMARY KEY (tenant_id, decision_set_id)
);
-- The seed's queries: by session (newest first), with shadows (newest first), by message; retention by age.
CREATE INDEX decision_set_by_session ON rm_template.decision_set (tenant_id, session_id, occurred_at DESC);
CREATE INDEX decision_set_with_shadow ON rm_template.decision_set (tenant_id, occurred_at DESC) WHERE has_shadow;
CREATE INDEX decision_set_by_time ON rm_template.decision_set (tenant_id, occurred_at DESC);
CREATE INDEX decision_set_by_message ON rm_template.decision_set (tenant_id, message_id);
CREATE INDEX decision_set_by_age ON rm_template.decision_set (occurred_at);

-- Seed 002 USER_BEHAVIOR_SIGNAL, several per message.
CREATE TABLE rm_template.behavior_signal (
    tenant_id   TEXT        NOT NULL,
    event_id    UUID        NOT NULL,
    message_id  TEXT        NOT NULL,
    session_id  TEXT        NOT NULL,
    signal_type TEXT        NOT NULL,
    signal_data JSONB       NOT NULL,
    extra_data  JSONB,
    level       TEXT        NOT NULL,
    occurred_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (tenant_id, event_id)
);
CREATE INDEX behavior_signal_by_message ON rm_template.behavior_signal (tenant_id, message_id, occurred_at);
CREATE INDEX behavior_signal_by_age ON rm_template.behavior_signal (occurred_at);

-- Each generation's own idempotent-consumer ledger (same shape as the platform's processed_event), so that a
-- generation is complete on its own and dropping it drops its ledger. Receipts are answered from the current one.
CREATE TABLE rm_template.processed_event (
    consumer     TEXT        NOT NULL,
    event_id     UUID        NOT NULL,
    tenant_id    TEXT,
    processed_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (consumer, event_id)
);
CREATE INDEX processed_event_by_tenant ON rm_template.processed_event (tenant_id, event_id);

CREATE TABLE read_model_generation (
    generation         INTEGER     PRIMARY KEY,
    state              TEXT        NOT NULL CHECK (state IN ('building', 'current', 'retired')),
    created_at         TIMESTAMPTZ NOT NULL DEFAULT now(),
    -- Backfill from offset zero up to the end offsets taken right after the generation was created; from then on
    -- the live projection writes every new event into it too.
    backfill_until     JSONB,
    backfill_position  JSONB,
    backfill_events    BIGINT      NOT NULL DEFAULT 0,
    backfill_done_at   TIMESTAMPTZ,
    backfill_owner     TEXT,
    backfill_heartbeat TIMESTAMPTZ,
    switched_at        TIMESTAMPTZ,
    retired_at         TIMESTAMPTZ,
    dropped_at         TIMESTAMPTZ
);
CREATE UNIQUE INDEX one_current_generation ON read_model_generation ((true)) WHERE state = 'current';
CREATE UNIQUE INDEX one_building_generation ON read_model_generation ((true)) WHERE state = 'building';
