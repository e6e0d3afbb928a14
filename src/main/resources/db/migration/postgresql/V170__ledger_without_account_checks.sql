-- Spendings and ledger lines are written only by a ledger round that holds their account's row lock,
-- and accounts are never deleted, so the two foreign keys to accounts checked nothing the lock had not
-- already made true. They cost a trigger and a row lock per inserted row: about a third of the hot
-- spend's write statement (docs/PERFORMANCE.md). verify still finds a row whose account is missing.
ALTER TABLE spendings DROP CONSTRAINT spendings_account_id_fkey;
ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_account_id_fkey;
