-- Erasure (ADR 0028). Each erasure query-service applied, recorded without content: who asked, when, what it named
-- (a keyed hash for a subject), what it deleted (counts). Kept forever, outside the read-model generations, so a
-- rebuild keeps it; readable by the tenant's administrators through the console. An erasure missing here (a database
-- restored from a backup older than it) is applied again from the erasure log at the next start.
CREATE TABLE erasure (
    erasure_id    TEXT        PRIMARY KEY,
    tenant_id     TEXT        NOT NULL,
    principal     TEXT        NOT NULL,
    selector      TEXT        NOT NULL CHECK (selector IN ('SESSIONS', 'SUBJECT', 'TENANT')),
    selector_hash TEXT,
    requested_at  TIMESTAMPTZ NOT NULL,
    applied_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
    erased        JSONB       NOT NULL DEFAULT '{}'::jsonb
);
CREATE INDEX erasure_by_tenant ON erasure (tenant_id, requested_at DESC);

-- What an erasure looks up: a subject's sessions, and the rows of erased sessions and messages that are not keyed by
-- them first.
CREATE INDEX session_by_subject ON rm_template.session (tenant_id, (attributes ->> 'subject'))
    WHERE attributes ? 'subject';
CREATE INDEX behavior_signal_by_session ON rm_template.behavior_signal (tenant_id, session_id);
CREATE INDEX shadow_evaluation_by_message ON rm_template.shadow_evaluation (tenant_id, message_id);
CREATE INDEX decision_comparison_by_message ON rm_template.decision_comparison (tenant_id, message_id);

DO $$
DECLARE
    g RECORD;
BEGIN
    FOR g IN SELECT generation FROM read_model_generation WHERE dropped_at IS NULL LOOP
        EXECUTE format('CREATE INDEX IF NOT EXISTS session_by_subject ON rm_%s.session '
                       '(tenant_id, (attributes ->> ''subject'')) WHERE attributes ? ''subject''', g.generation);
        EXECUTE format('CREATE INDEX IF NOT EXISTS behavior_signal_by_session ON rm_%s.behavior_signal '
                       '(tenant_id, session_id)', g.generation);
        EXECUTE format('CREATE INDEX IF NOT EXISTS shadow_evaluation_by_message ON rm_%s.shadow_evaluation '
                       '(tenant_id, message_id)', g.generation);
        EXECUTE format('CREATE INDEX IF NOT EXISTS decision_comparison_by_message ON rm_%s.decision_comparison '
                       '(tenant_id, message_id)', g.generation);
    END LOOP;
END $$;
