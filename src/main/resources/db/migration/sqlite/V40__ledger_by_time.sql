-- Callers' usage and balance-at-an-instant (CONTRACT §11) read an account's ledger by time: a range
-- read on this index, never a scan of other accounts' lines.
CREATE INDEX ledger_entries_account_time ON ledger_entries (account_id, created_at);
