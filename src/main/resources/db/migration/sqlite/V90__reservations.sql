-- Reservations (CONTRACT §8): tokens held now and settled, released or expired later. A hold draws from
-- grants like a spending does; its draws are kept in spending_grants under the reservation's id.
CREATE TABLE reservations (
    seq            INTEGER PRIMARY KEY AUTOINCREMENT,
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
    CHECK ((status = 'held') = (ended_at IS NULL)),
    CHECK ((status = 'settled') = (settled_amount IS NOT NULL))
);
CREATE INDEX reservations_account_seq ON reservations (account_id, seq);
CREATE INDEX reservations_held ON reservations (account_id, expires_at) WHERE status = 'held';

-- Partial reverts: how much of a spending has been refunded. status stays 'active' until all of it is.
ALTER TABLE spendings ADD COLUMN reverted_amount INTEGER NOT NULL DEFAULT 0 CHECK (reverted_amount >= 0);
UPDATE spendings SET reverted_amount = amount WHERE status = 'reverted';

-- Idempotency keys also cover reservations and partial reverts; detail is the reservation's lifetime in
-- seconds, or the spending's reverted amount right after a partial revert. SQLite cannot change a CHECK
-- constraint, so the table is rebuilt.
CREATE TABLE idempotency_keys_v90 (
    account_id  TEXT    NOT NULL REFERENCES accounts (id),
    key         TEXT    NOT NULL,
    amount      INTEGER NOT NULL,
    outcome     TEXT    NOT NULL CHECK (outcome IN ('spent', 'insufficient_balance', 'reserved',
                                                    'reserve_insufficient_balance', 'reverted')),
    spending_id TEXT,
    balance     INTEGER,
    created_at  INTEGER NOT NULL,
    detail      INTEGER,
    PRIMARY KEY (account_id, key)
);
INSERT INTO idempotency_keys_v90 (account_id, key, amount, outcome, spending_id, balance, created_at)
SELECT account_id, key, amount, outcome, spending_id, balance, created_at FROM idempotency_keys;
DROP TABLE idempotency_keys;
ALTER TABLE idempotency_keys_v90 RENAME TO idempotency_keys;
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);
