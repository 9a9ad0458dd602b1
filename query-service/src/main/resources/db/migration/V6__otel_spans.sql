-- Sessions from OpenTelemetry (ADR 0012): the spans of hindsight.spans.v1, which ingest-service writes from OTLP/HTTP
-- exports, kept as exported, and the session each trace belongs to. A session made of spans is assembled from all of
-- its spans whenever one of them arrives, so the result does not depend on arrival order, splits or re-exports; its
-- messages go to the message table like every other session's. Added to rm_template and to every generation that
-- still exists.

CREATE TABLE rm_template.otel_span (
    tenant_id           TEXT        NOT NULL,
    trace_id            TEXT        NOT NULL,
    span_id             TEXT        NOT NULL,
    parent_span_id      TEXT,
    name                TEXT        NOT NULL,
    kind                TEXT        NOT NULL,
    convention          TEXT        NOT NULL CHECK (convention IN ('GEN_AI', 'OPENINFERENCE')),
    start_unix_nano     BIGINT      NOT NULL,
    end_unix_nano       BIGINT      NOT NULL,
    status_code         TEXT        NOT NULL,
    status_message      TEXT,
    attributes          JSONB       NOT NULL,
    -- [{name, time_unix_nano, attributes}]
    events              JSONB       NOT NULL,
    resource_attributes JSONB       NOT NULL,
    scope_name          TEXT,
    -- Attributes ingest cut to its limit: ["key", "<event index>/key"]
    truncated           JSONB       NOT NULL,
    event_id            UUID        NOT NULL,
    recorded_at         TIMESTAMPTZ NOT NULL,
    -- A span exported again is the same fact.
    PRIMARY KEY (tenant_id, trace_id, span_id)
);

-- Which session a trace's spans belong to (gen_ai.conversation.id, else session.id, else the trace id): one
-- conversation can be many traces, one per turn.
CREATE TABLE rm_template.otel_trace (
    tenant_id  TEXT NOT NULL,
    trace_id   TEXT NOT NULL,
    session_id TEXT NOT NULL,
    PRIMARY KEY (tenant_id, trace_id)
);
CREATE INDEX otel_trace_by_session ON rm_template.otel_trace (tenant_id, session_id);

-- What the model calls that produced a message cost: OTLP reports it, the event API does not (NULL there).
ALTER TABLE rm_template.message
    ADD COLUMN input_tokens  BIGINT,
    ADD COLUMN output_tokens BIGINT,
    ADD COLUMN latency_ms    BIGINT,
    ADD COLUMN model         TEXT;

DO $$
DECLARE
    g RECORD;
BEGIN
    FOR g IN SELECT generation FROM read_model_generation WHERE dropped_at IS NULL LOOP
        EXECUTE format('CREATE TABLE IF NOT EXISTS rm_%s.otel_span (LIKE rm_template.otel_span INCLUDING ALL)', g.generation);
        EXECUTE format('CREATE TABLE IF NOT EXISTS rm_%s.otel_trace (LIKE rm_template.otel_trace INCLUDING ALL)', g.generation);
        EXECUTE format('ALTER TABLE rm_%s.message ADD COLUMN IF NOT EXISTS input_tokens BIGINT, '
                       'ADD COLUMN IF NOT EXISTS output_tokens BIGINT, ADD COLUMN IF NOT EXISTS latency_ms BIGINT, '
                       'ADD COLUMN IF NOT EXISTS model TEXT', g.generation);
    END LOOP;
END $$;
