-- GenAI events sent as OpenTelemetry log records (ADR 0025): what a model call said (gen_ai.user.message,
-- gen_ai.choice, gen_ai.client.inference.operation.details, ...), tied to the call's span by trace and span id. Kept as
-- exported and joined to their span whenever a session is assembled, so an event may arrive before or after its span.
-- Holds what people and agents wrote, secrets already redacted by ingest under the tenant's policy; read only by
-- query-service's span assembly (the API serves the assembled messages, never these rows), and kept as long as the
-- session it belongs to, like otel_span. Added to rm_template and to every generation that still exists.

CREATE TABLE rm_template.otel_log (
    tenant_id           TEXT        NOT NULL,
    trace_id            TEXT        NOT NULL,
    span_id             TEXT        NOT NULL,
    event_name          TEXT        NOT NULL,
    time_unix_nano      BIGINT      NOT NULL,
    -- Its place among its span's records in its export request: orders a call's events that share one time.
    position            INT         NOT NULL,
    -- The record's body in plain JSON (null when it had none) and its attributes as one object.
    body                JSONB,
    attributes          JSONB       NOT NULL,
    -- Values ingest cut to its limit: ["body", "key"]
    truncated           JSONB       NOT NULL,
    -- Derived from everything the record states: one exported again is the same fact.
    event_id            UUID        NOT NULL,
    recorded_at         TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (tenant_id, trace_id, event_id)
);

DO $$
DECLARE
    g RECORD;
BEGIN
    FOR g IN SELECT generation FROM read_model_generation WHERE dropped_at IS NULL LOOP
        EXECUTE format('CREATE TABLE IF NOT EXISTS rm_%s.otel_log (LIKE rm_template.otel_log INCLUDING ALL)', g.generation);
    END LOOP;
END $$;
