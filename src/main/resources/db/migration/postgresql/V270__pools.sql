-- Credit pools (CONTRACT §14). Every grant, spending, reservation and ledger line belongs to one pool;
-- everything made before this release belongs to 'default', so every balance stays as it was. The
-- account's row keeps the default pool's balance; a named pool's balance is what its grants have left.
ALTER TABLE grants ADD COLUMN pool TEXT NOT NULL DEFAULT 'default';
ALTER TABLE spendings ADD COLUMN pool TEXT NOT NULL DEFAULT 'default';
ALTER TABLE reservations ADD COLUMN pool TEXT NOT NULL DEFAULT 'default';
ALTER TABLE ledger_entries ADD COLUMN pool TEXT NOT NULL DEFAULT 'default';
-- An account's named pools, space separated ('embeddings images'); NULL when it has none.
ALTER TABLE accounts ADD COLUMN pools TEXT;
-- A plan's named pools with their allowance and rollover ('images=500/0 embeddings=1000/0'); NULL when none.
ALTER TABLE plans ADD COLUMN pools TEXT;
-- One allowance per period in each pool (it was one per period per account).
DROP INDEX grants_allowance_period;
CREATE UNIQUE INDEX grants_allowance_period ON grants (account_id, pool, period_start) WHERE kind = 'allowance';
