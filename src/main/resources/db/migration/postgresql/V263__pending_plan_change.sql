-- A plan change that waits for the end of the account's period (CONTRACT §13, issue 39): the plan the
-- renewal at pending_at moves the account to. Both are NULL when no change waits; the ledger's core sets
-- and clears them with the account locked, and the renewal that applies the change clears them.
ALTER TABLE accounts ADD COLUMN pending_plan_id TEXT REFERENCES plans (id);
ALTER TABLE accounts ADD COLUMN pending_at BIGINT;
