-- Planted for HouseRulesTest: two tenant-scoped tables (one by ALTER TABLE), one shared.
CREATE TABLE invoice (
    tenant_id  text NOT NULL,
    invoice_id text NOT NULL,
    due        timestamptz,
    PRIMARY KEY (tenant_id, invoice_id)
);
CREATE TABLE currency (code text PRIMARY KEY);
CREATE TABLE payment (payment_id text PRIMARY KEY);
ALTER TABLE payment ADD COLUMN IF NOT EXISTS tenant_id text;
