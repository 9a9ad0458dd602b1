-- Read models of evaluation-service's topics (#5): summaries and QA results (hindsight.insights.v1), shadow
-- evaluations and decision comparisons (hindsight.evaluations.v1). Added to rm_template and to every generation that
-- still exists, so the current one starts filling as soon as the new channels consume.

-- Seed 000's per-message summary, kept apart from the message row: evaluation-service may publish it before this
-- service has projected the message, and a join at read time makes the order irrelevant.
CREATE TABLE rm_template.message_summary (
    tenant_id      TEXT        NOT NULL,
    session_id     TEXT        NOT NULL,
    message_index  INTEGER     NOT NULL,
    status         TEXT        NOT NULL CHECK (status IN ('completed', 'failed')),
    summary        TEXT,
    failure_reason TEXT,
    summarizer     TEXT        NOT NULL,
    produced_at    TIMESTAMPTZ NOT NULL,
    event_id       UUID        NOT NULL,
    PRIMARY KEY (tenant_id, session_id, message_index)
);
ALTER TABLE rm_template.message DROP COLUMN summary;

ALTER TABLE rm_template.session
    ADD COLUMN summary_status TEXT CHECK (summary_status IN ('completed', 'failed')),
    ADD COLUMN qa_judge       TEXT;

-- Seed 002 SHADOW_EVALUATION_COMPLETED: every revision kept; readers take the latest per decision set.
CREATE TABLE rm_template.shadow_evaluation (
    tenant_id          TEXT             NOT NULL,
    evaluation_id      TEXT             NOT NULL,
    decision_set_id    TEXT             NOT NULL,
    message_id         TEXT             NOT NULL,
    session_id         TEXT             NOT NULL,
    active_version     TEXT             NOT NULL,
    active_score       DOUBLE PRECISION NOT NULL,
    shadow_scores      JSONB            NOT NULL,
    signals_used       JSONB            NOT NULL,
    evaluation_time_ms DOUBLE PRECISION NOT NULL,
    evaluation_method  TEXT             NOT NULL,
    revision           INTEGER          NOT NULL,
    trigger            TEXT             NOT NULL,
    level              TEXT             NOT NULL,
    occurred_at        TIMESTAMPTZ      NOT NULL,
    event_id           UUID             NOT NULL,
    PRIMARY KEY (tenant_id, evaluation_id)
);
CREATE INDEX shadow_evaluation_by_set ON rm_template.shadow_evaluation (tenant_id, decision_set_id, revision DESC);
CREATE INDEX shadow_evaluation_by_time ON rm_template.shadow_evaluation (tenant_id, occurred_at);
CREATE INDEX shadow_evaluation_by_age ON rm_template.shadow_evaluation (occurred_at);

-- Seed 002 DECISION_COMPARISON, one per shadow decision.
CREATE TABLE rm_template.decision_comparison (
    tenant_id            TEXT             NOT NULL,
    comparison_id        TEXT             NOT NULL,
    decision_set_id      TEXT             NOT NULL,
    message_id           TEXT             NOT NULL,
    session_id           TEXT             NOT NULL,
    active_version       TEXT             NOT NULL,
    shadow_version       TEXT             NOT NULL,
    decision_diverged    BOOLEAN          NOT NULL,
    action_diverged      BOOLEAN          NOT NULL,
    active_action        TEXT             NOT NULL,
    shadow_action        TEXT             NOT NULL,
    confidence_delta     DOUBLE PRECISION,
    reasoning_similarity DOUBLE PRECISION,
    similarity_model     TEXT,
    divergence_severity  TEXT             NOT NULL,
    comparison_type      TEXT             NOT NULL,
    level                TEXT             NOT NULL,
    occurred_at          TIMESTAMPTZ      NOT NULL,
    event_id             UUID             NOT NULL,
    PRIMARY KEY (tenant_id, comparison_id)
);
CREATE INDEX decision_comparison_by_set ON rm_template.decision_comparison (tenant_id, decision_set_id);
CREATE INDEX decision_comparison_by_age ON rm_template.decision_comparison (occurred_at);

DO $$
DECLARE
    g RECORD;
BEGIN
    FOR g IN SELECT generation FROM read_model_generation WHERE dropped_at IS NULL LOOP
        EXECUTE format('ALTER TABLE rm_%s.message DROP COLUMN IF EXISTS summary', g.generation);
        EXECUTE format('ALTER TABLE rm_%s.session ADD COLUMN IF NOT EXISTS summary_status TEXT '
                       'CHECK (summary_status IN (''completed'', ''failed'')), ADD COLUMN IF NOT EXISTS qa_judge TEXT',
                       g.generation);
        EXECUTE format('CREATE TABLE IF NOT EXISTS rm_%s.message_summary (LIKE rm_template.message_summary INCLUDING ALL)', g.generation);
        EXECUTE format('CREATE TABLE IF NOT EXISTS rm_%s.shadow_evaluation (LIKE rm_template.shadow_evaluation INCLUDING ALL)', g.generation);
        EXECUTE format('CREATE TABLE IF NOT EXISTS rm_%s.decision_comparison (LIKE rm_template.decision_comparison INCLUDING ALL)', g.generation);
    END LOOP;
END $$;
