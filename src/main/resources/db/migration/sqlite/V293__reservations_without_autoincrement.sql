-- Reservations are never deleted, so SQLite's plain rowid (the largest seq plus one) numbers them as
-- AUTOINCREMENT did, which only added work to every hold: a read and an update of the table's row in
-- sqlite_sequence, as V190 found for spendings and ledger lines. SQLite cannot drop AUTOINCREMENT in place,
-- so the table is rebuilt with its rows, seq values and indexes unchanged (nothing references it).
CREATE TABLE reservations_v293 (
    seq            INTEGER PRIMARY KEY,
    id             TEXT    NOT NULL UNIQUE,
    account_id     TEXT    NOT NULL REFERENCES accounts (id),
    amount         INTEGER NOT NULL CHECK (amount > 0),
    status         TEXT    NOT NULL CHECK (status IN ('held', 'settled', 'released', 'expired')),
    created_at     INTEGER NOT NULL,
    expires_at     INTEGER NOT NULL,
    settled_amount INTEGER CHECK (settled_amount >= 0 AND settled_amount <= amount),
    spending_id    TEXT,
    ended_at       INTEGER,
    end_balance    INTEGER,
    pool           TEXT    NOT NULL DEFAULT 'default',
    key_id         TEXT,
    grant_id       TEXT,
    CHECK ((status = 'held') = (ended_at IS NULL)),
    CHECK ((status = 'settled') = (settled_amount IS NOT NULL))
);
INSERT INTO reservations_v293 (seq, id, account_id, amount, status, created_at, expires_at, settled_amount,
                               spending_id, ended_at, end_balance, pool, key_id, grant_id)
SELECT seq, id, account_id, amount, status, created_at, expires_at, settled_amount, spending_id, ended_at,
       end_balance, pool, key_id, grant_id FROM reservations;
DROP TABLE reservations;
ALTER TABLE reservations_v293 RENAME TO reservations;
CREATE INDEX reservations_account_seq ON reservations (account_id, seq);
CREATE INDEX reservations_held ON reservations (account_id, expires_at) WHERE status = 'held';
