-- A spend changes its grant's remaining tokens. grants_live had remaining in its predicate, so SQLite
-- rewrote the grant's index entry at every spend: one more page per round on a hot account, one more
-- random page per spend across many. It now keys on live, a column the ledger store sets only when a
-- grant runs out or comes back; the CHECK keeps it equal to remaining > 0 (a new grant has tokens,
-- hence the default). SQLite cannot add a column whose CHECK existing rows would fail, so the table is
-- rebuilt (nothing references it).
CREATE TABLE grants_v180 (
    id           TEXT    PRIMARY KEY,
    account_id   TEXT    NOT NULL REFERENCES accounts (id),
    kind         TEXT    NOT NULL CHECK (kind IN ('allowance', 'credit')),
    amount       INTEGER NOT NULL CHECK (amount > 0),
    remaining    INTEGER NOT NULL CHECK (remaining >= 0),
    expired      INTEGER NOT NULL DEFAULT 0 CHECK (expired >= 0),
    expires_at   INTEGER,
    period_start INTEGER,
    created_at   INTEGER NOT NULL,
    live         INTEGER NOT NULL DEFAULT 1 CHECK (live = (remaining > 0)),
    CHECK (remaining + expired <= amount)
);
INSERT INTO grants_v180 (id, account_id, kind, amount, remaining, expired, expires_at, period_start, created_at, live)
SELECT id, account_id, kind, amount, remaining, expired, expires_at, period_start, created_at, remaining > 0
FROM grants;
DROP TABLE grants;
ALTER TABLE grants_v180 RENAME TO grants;
CREATE INDEX grants_live ON grants (account_id) WHERE live;
CREATE UNIQUE INDEX grants_allowance_period ON grants (account_id, period_start) WHERE kind = 'allowance';
