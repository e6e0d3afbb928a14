-- Spendings and ledger lines are never deleted, so SQLite's plain rowid (the largest seq plus one) already
-- numbers them as AUTOINCREMENT did. AUTOINCREMENT only added work to every insert: it reads and updates
-- the table's row in sqlite_sequence, two more B-tree steps per row and one more page in every commit
-- (PERFORMANCE.md, session 13). SQLite cannot drop AUTOINCREMENT in place, so both tables are rebuilt with
-- their rows, seq values and indexes unchanged (nothing references either table).
CREATE TABLE spendings_v190 (
    seq             INTEGER PRIMARY KEY,
    id              TEXT    NOT NULL UNIQUE,
    account_id      TEXT    NOT NULL REFERENCES accounts (id),
    amount          INTEGER NOT NULL CHECK (amount > 0),
    status          TEXT    NOT NULL CHECK (status IN ('active', 'reverted')),
    created_at      INTEGER NOT NULL,
    reverted_at     INTEGER,
    reverted_amount INTEGER NOT NULL DEFAULT 0 CHECK (reverted_amount >= 0),
    grant_id        TEXT
);
INSERT INTO spendings_v190 (seq, id, account_id, amount, status, created_at, reverted_at, reverted_amount, grant_id)
SELECT seq, id, account_id, amount, status, created_at, reverted_at, reverted_amount, grant_id FROM spendings;
DROP TABLE spendings;
ALTER TABLE spendings_v190 RENAME TO spendings;
CREATE INDEX spendings_account_seq ON spendings (account_id, seq);

CREATE TABLE ledger_entries_v190 (
    seq           INTEGER PRIMARY KEY,
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
INSERT INTO ledger_entries_v190 (seq, account_id, kind, amount, balance_after, spending_id, reason, created_at,
                                 grant_id)
SELECT seq, account_id, kind, amount, balance_after, spending_id, reason, created_at, grant_id FROM ledger_entries;
DROP TABLE ledger_entries;
ALTER TABLE ledger_entries_v190 RENAME TO ledger_entries;
CREATE INDEX ledger_entries_spending ON ledger_entries (spending_id);
CREATE INDEX ledger_entries_account_time ON ledger_entries (account_id, created_at);
