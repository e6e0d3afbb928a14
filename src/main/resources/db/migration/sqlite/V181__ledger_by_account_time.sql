-- An account's ledger is read newest first (history pages, the latest line) and by time (usage, the
-- balance at an instant). The ledger store now stamps an account's lines no earlier than its last one
-- (accounts.last_line_at), so within an account time order is sequence order and one index serves both:
-- SQLite ends every index entry with the rowid (seq), so (account_id, created_at) orders lines by
-- (account_id, created_at, seq). A line costs one index entry less. Lines written before this, if a
-- clock ever went back, are listed by time and then by sequence.
ALTER TABLE accounts ADD COLUMN last_line_at INTEGER;
UPDATE accounts
SET last_line_at = (SELECT MAX(l.created_at) FROM ledger_entries l WHERE l.account_id = accounts.id);
DROP INDEX ledger_entries_account_seq;
