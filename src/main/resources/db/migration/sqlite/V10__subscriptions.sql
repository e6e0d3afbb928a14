-- Subscriptions that renew and credits that expire (CONTRACT §7). Every token an account holds now
-- sits in a grant; a spending remembers what it drew from each grant.

-- Plans: an allowance per period, and how much of it may roll over. monthlyTokens was stored and did
-- nothing; it becomes the allowance of a monthly plan.
ALTER TABLE plans ADD COLUMN allowance INTEGER NOT NULL DEFAULT 0 CHECK (allowance >= 0);
ALTER TABLE plans ADD COLUMN period TEXT NOT NULL DEFAULT 'month' CHECK (period IN ('day', 'week', 'month', 'year'));
ALTER TABLE plans ADD COLUMN rollover INTEGER NOT NULL DEFAULT 0 CHECK (rollover >= 0);
UPDATE plans SET allowance = monthly_tokens WHERE monthly_tokens IS NOT NULL;
ALTER TABLE plans DROP COLUMN monthly_tokens;

-- Accounts: the anchor their periods count from, the period renewed last, what it granted, and when the
-- ledger next has something to do for the account (a renewal or an expiry). Existing accounts are due at
-- once: their first period is granted on the first touch or sweep.
ALTER TABLE accounts ADD COLUMN period_anchor INTEGER NOT NULL DEFAULT 0;
UPDATE accounts SET period_anchor = created_at;
ALTER TABLE accounts ADD COLUMN period_start INTEGER;
ALTER TABLE accounts ADD COLUMN period_end INTEGER;
ALTER TABLE accounts ADD COLUMN period_granted INTEGER NOT NULL DEFAULT 0;
ALTER TABLE accounts ADD COLUMN due_at INTEGER NOT NULL DEFAULT 0;
CREATE INDEX accounts_due ON accounts (due_at);

-- A grant: tokens from one credit or one period's allowance. remaining + expired + what spendings hold
-- of it = amount. An allowance grant is unique per account and period.
CREATE TABLE grants (
    id           TEXT    PRIMARY KEY,
    account_id   TEXT    NOT NULL REFERENCES accounts (id),
    kind         TEXT    NOT NULL CHECK (kind IN ('allowance', 'credit')),
    amount       INTEGER  NOT NULL CHECK (amount > 0),
    remaining    INTEGER  NOT NULL CHECK (remaining >= 0),
    expired      INTEGER  NOT NULL DEFAULT 0 CHECK (expired >= 0),
    expires_at   INTEGER,
    period_start INTEGER,
    created_at   INTEGER  NOT NULL,
    CHECK (remaining + expired <= amount)
);
CREATE INDEX grants_live ON grants (account_id) WHERE remaining > 0;
CREATE UNIQUE INDEX grants_allowance_period ON grants (account_id, period_start) WHERE kind = 'allowance';

-- What each spending drew from each grant, and how much of it a revert returned.
CREATE TABLE spending_grants (
    spending_id TEXT    NOT NULL,
    grant_id    TEXT    NOT NULL,
    amount      INTEGER  NOT NULL CHECK (amount > 0),
    returned    INTEGER  NOT NULL DEFAULT 0 CHECK (returned >= 0 AND returned <= amount),
    PRIMARY KEY (spending_id, grant_id)
);

-- Existing balances become one never-expiring grant per account, which the active spendings drew from,
-- so that reverting them after the upgrade returns their tokens to it.
INSERT INTO grants (id, account_id, kind, amount, remaining, expired, expires_at, period_start, created_at)
SELECT 'gr_' || substr(a.id, 6), a.id, 'credit', a.balance + COALESCE(s.active, 0), a.balance, 0, NULL, NULL,
       a.created_at
FROM accounts a
LEFT JOIN (SELECT account_id, SUM(amount) AS active FROM spendings WHERE status = 'active' GROUP BY account_id) s
    ON s.account_id = a.id
WHERE a.balance + COALESCE(s.active, 0) > 0;
INSERT INTO spending_grants (spending_id, grant_id, amount, returned)
SELECT id, 'gr_' || substr(account_id, 6), amount, 0 FROM spendings WHERE status = 'active';

-- Ledger lines: the kinds of §7 and §8, and the grant a credit, allowance or expiry line is about.
-- SQLite cannot change a CHECK constraint, so the table is rebuilt.
CREATE TABLE ledger_entries_v10 (
    seq           INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id    TEXT    NOT NULL REFERENCES accounts (id),
    kind          TEXT    NOT NULL
                  CHECK (kind IN ('credit', 'allowance', 'expire', 'spend', 'revert', 'hold', 'release')),
    amount        INTEGER NOT NULL,
    balance_after INTEGER NOT NULL CHECK (balance_after >= 0),
    spending_id   TEXT,
    reason        TEXT,
    created_at    INTEGER NOT NULL,
    grant_id      TEXT
);
INSERT INTO ledger_entries_v10 (seq, account_id, kind, amount, balance_after, spending_id, reason, created_at)
SELECT seq, account_id, kind, amount, balance_after, spending_id, reason, created_at FROM ledger_entries;
DROP TABLE ledger_entries;
ALTER TABLE ledger_entries_v10 RENAME TO ledger_entries;
CREATE INDEX ledger_entries_account_seq ON ledger_entries (account_id, seq);
CREATE INDEX ledger_entries_spending ON ledger_entries (spending_id);
