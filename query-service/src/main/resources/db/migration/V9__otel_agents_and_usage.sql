-- Today's GenAI conventions (ADR 0026): what a model call cost beyond input and output tokens, what it was told
-- besides the conversation, and the agents that ran inside the session's agent. All NULL for sessions the event API
-- made, which do not carry them. Like the rest of message and session, readable by the tenant's readers and kept
-- as long as the session; the system instructions and tool definitions hold what the agent's authors wrote, secrets
-- already redacted by ingest under the tenant's policy.

-- Cache reads and writes are part of input_tokens, reasoning part of output_tokens (as the conventions count them).
ALTER TABLE rm_template.message
    ADD COLUMN cache_read_input_tokens  BIGINT,
    ADD COLUMN cache_write_input_tokens BIGINT,
    ADD COLUMN reasoning_output_tokens  BIGINT,
    ADD COLUMN time_to_first_token_ms   BIGINT,
    ADD COLUMN system_instructions      TEXT,
    -- A JSON array, each tool as the call offered it.
    ADD COLUMN tool_definitions         JSONB;

-- The tree of agent runs when sub-agents ran (else NULL), parents before children, each sub-agent with its own
-- messages; served as it is stored.
ALTER TABLE rm_template.session ADD COLUMN agents JSONB;

DO $$
DECLARE
    g RECORD;
BEGIN
    FOR g IN SELECT generation FROM read_model_generation WHERE dropped_at IS NULL LOOP
        EXECUTE format('ALTER TABLE rm_%s.message ADD COLUMN IF NOT EXISTS cache_read_input_tokens BIGINT, '
                       'ADD COLUMN IF NOT EXISTS cache_write_input_tokens BIGINT, '
                       'ADD COLUMN IF NOT EXISTS reasoning_output_tokens BIGINT, '
                       'ADD COLUMN IF NOT EXISTS time_to_first_token_ms BIGINT, '
                       'ADD COLUMN IF NOT EXISTS system_instructions TEXT, '
                       'ADD COLUMN IF NOT EXISTS tool_definitions JSONB', g.generation);
        EXECUTE format('ALTER TABLE rm_%s.session ADD COLUMN IF NOT EXISTS agents JSONB', g.generation);
    END LOOP;
END $$;
