-- A memory holds one vector per embedding model: the generation searches use and, while the configured model's
-- builds in the background, that one too (design.md § Re-embedding).
ALTER TABLE memory_vector DROP CONSTRAINT memory_vector_pkey;
ALTER TABLE memory_vector ADD PRIMARY KEY (memory_id, model_id);

-- One replica at a time builds missing vectors: the one holding this lease; another takes over once it lapses.
CREATE TABLE vector_keeper_lease (
    only_row BOOLEAN     PRIMARY KEY DEFAULT true CHECK (only_row),
    holder   TEXT        NOT NULL,
    until    TIMESTAMPTZ NOT NULL
);
