-- An account's ledger is read newest first (history pages, the latest line) and by time (usage, the
-- balance at an instant). The ledger store now stamps an account's lines no earlier than its last one
-- (accounts.last_line_at), so within an account time order is sequence order and one index on
-- (account_id, created_at, seq) serves both. A line costs one index entry less. Lines written before
-- this, if nodes' clocks disagreed, are listed by time and then by sequence.
ALTER TABLE accounts ADD COLUMN last_line_at BIGINT;
UPDATE accounts a
SET last_line_at = l.last_line_at
FROM (SELECT account_id, MAX(created_at) AS last_line_at FROM ledger_entries GROUP BY account_id) l
WHERE l.account_id = a.id;
DROP INDEX ledger_entries_account_time;
CREATE INDEX ledger_entries_account_time ON ledger_entries (account_id, created_at, seq);
DROP INDEX ledger_entries_account_seq;
