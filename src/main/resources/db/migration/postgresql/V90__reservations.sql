-- Reservations (CONTRACT §8): tokens held now and settled, released or expired later. A hold draws from
-- grants like a spending does; its draws are kept in spending_grants under the reservation's id.
CREATE TABLE reservations (
    seq            BIGSERIAL PRIMARY KEY,
    id             TEXT    NOT NULL UNIQUE,
    account_id     TEXT    NOT NULL REFERENCES accounts (id),
    amount         BIGINT  NOT NULL CHECK (amount > 0),
    status         TEXT    NOT NULL CHECK (status IN ('held', 'settled', 'released', 'expired')),
    created_at     BIGINT  NOT NULL,
    expires_at     BIGINT  NOT NULL,
    settled_amount BIGINT  CHECK (settled_amount >= 0 AND settled_amount <= amount),
    spending_id    TEXT,
    ended_at       BIGINT,
    end_balance    BIGINT,
    CHECK ((status = 'held') = (ended_at IS NULL)),
    CHECK ((status = 'settled') = (settled_amount IS NOT NULL))
);
CREATE INDEX reservations_account_seq ON reservations (account_id, seq);
CREATE INDEX reservations_held ON reservations (account_id, expires_at) WHERE status = 'held';

-- Partial reverts: how much of a spending has been refunded. status stays 'active' until all of it is.
ALTER TABLE spendings ADD COLUMN reverted_amount BIGINT NOT NULL DEFAULT 0;
UPDATE spendings SET reverted_amount = amount WHERE status = 'reverted';
ALTER TABLE spendings ADD CONSTRAINT spendings_reverted_amount_check
    CHECK (reverted_amount >= 0 AND reverted_amount <= amount);

-- Idempotency keys also cover reservations and partial reverts; detail is the reservation's lifetime in
-- seconds, or the spending's reverted amount right after a partial revert.
ALTER TABLE idempotency_keys DROP CONSTRAINT idempotency_keys_outcome_check;
ALTER TABLE idempotency_keys ADD CONSTRAINT idempotency_keys_outcome_check
    CHECK (outcome IN ('spent', 'insufficient_balance', 'reserved', 'reserve_insufficient_balance', 'reverted'));
ALTER TABLE idempotency_keys ADD COLUMN detail BIGINT;
