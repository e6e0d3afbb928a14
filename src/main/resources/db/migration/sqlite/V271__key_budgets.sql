-- Key budgets (CONTRACT §14). A key carries up to 4 budgets, each a cap on what it may take from one pool
-- in each UTC window of its period; the ledger decides them under the account's lock.
CREATE TABLE key_budgets (
    key_id   TEXT    NOT NULL REFERENCES api_keys (id),
    pool     TEXT    NOT NULL,
    period   TEXT    NOT NULL CHECK (period IN ('day', 'week', 'month')),
    tokens   BIGINT  NOT NULL CHECK (tokens > 0),
    position INTEGER NOT NULL,
    -- When the key got this budget: verify holds the budget to the windows that started after it.
    set_at   BIGINT  NOT NULL,
    PRIMARY KEY (key_id, pool, period)
);
-- Which key made each spending and each hold; NULL for rows made before this release and by operators.
-- A spending counts in its key's windows at key_used_at: when it was made, or a settle's when its hold was.
ALTER TABLE spendings ADD COLUMN key_id TEXT;
ALTER TABLE spendings ADD COLUMN key_used_at BIGINT;
ALTER TABLE reservations ADD COLUMN key_id TEXT;
-- What each key used of a budget's pool in each window, kept by the ledger round that counts in it, with the
-- key's account locked: a spend or hold reads one row per budget, however much the key did in the window.
-- A window without a row has used nothing; setting budgets fills the current windows from the rows above.
CREATE TABLE key_budget_use (
    key_id       TEXT   NOT NULL,
    pool         TEXT   NOT NULL,
    period       TEXT   NOT NULL,
    window_start BIGINT NOT NULL,
    used         BIGINT NOT NULL,
    PRIMARY KEY (key_id, pool, period, window_start)
);
-- The events key.budget_warning and key.budget_exhausted: one row, so one event, per key, budget, window and level.
CREATE TABLE key_budget_notices (
    key_id       TEXT   NOT NULL,
    pool         TEXT   NOT NULL,
    period       TEXT   NOT NULL,
    window_start BIGINT NOT NULL,
    level        TEXT   NOT NULL CHECK (level IN ('warning', 'exhausted')),
    created_at   BIGINT NOT NULL,
    PRIMARY KEY (key_id, pool, period, window_start, level)
);
