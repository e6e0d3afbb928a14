-- Pulseledger schema for the embedded SQLite store. Times are epoch milliseconds (UTC).
CREATE TABLE plans (
    id                    TEXT    PRIMARY KEY,
    name                  TEXT    NOT NULL,
    description           TEXT    NOT NULL DEFAULT '',
    monthly_tokens        INTEGER,
    rate_limit_per_minute INTEGER,
    created_at            INTEGER NOT NULL,
    updated_at            INTEGER NOT NULL
);

CREATE TABLE accounts (
    id         TEXT    PRIMARY KEY,
    name       TEXT    NOT NULL,
    plan_id    TEXT    NOT NULL REFERENCES plans (id),
    balance    INTEGER NOT NULL CHECK (balance >= 0),
    status     TEXT    NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'suspended')),
    created_at INTEGER NOT NULL
);

CREATE TABLE api_keys (
    id         TEXT    PRIMARY KEY,
    account_id TEXT    NOT NULL REFERENCES accounts (id),
    name       TEXT    NOT NULL DEFAULT '',
    key_hash   TEXT    NOT NULL UNIQUE,
    prefix     TEXT    NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER,
    revoked_at INTEGER
);
CREATE INDEX api_keys_account ON api_keys (account_id);

CREATE TABLE admin_keys (
    key_hash   TEXT    PRIMARY KEY,
    created_at INTEGER NOT NULL
);

CREATE TABLE spendings (
    seq         INTEGER PRIMARY KEY AUTOINCREMENT,
    id          TEXT    NOT NULL UNIQUE,
    account_id  TEXT    NOT NULL REFERENCES accounts (id),
    amount      INTEGER NOT NULL CHECK (amount > 0),
    status      TEXT    NOT NULL CHECK (status IN ('active', 'reverted')),
    created_at  INTEGER NOT NULL,
    reverted_at INTEGER
);
CREATE INDEX spendings_account_seq ON spendings (account_id, seq);

CREATE TABLE ledger_entries (
    seq           INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id    TEXT    NOT NULL REFERENCES accounts (id),
    kind          TEXT    NOT NULL CHECK (kind IN ('credit', 'spend', 'revert')),
    amount        INTEGER NOT NULL,
    balance_after INTEGER NOT NULL CHECK (balance_after >= 0),
    spending_id   TEXT,
    reason        TEXT,
    created_at    INTEGER NOT NULL
);
CREATE INDEX ledger_entries_account_seq ON ledger_entries (account_id, seq);
CREATE INDEX ledger_entries_spending ON ledger_entries (spending_id);

CREATE TABLE idempotency_keys (
    account_id  TEXT    NOT NULL REFERENCES accounts (id),
    key         TEXT    NOT NULL,
    amount      INTEGER NOT NULL,
    outcome     TEXT    NOT NULL CHECK (outcome IN ('spent', 'insufficient_balance')),
    spending_id TEXT,
    balance     INTEGER,
    created_at  INTEGER NOT NULL,
    PRIMARY KEY (account_id, key)
);
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);

CREATE TABLE services (
    id          TEXT    PRIMARY KEY,
    name        TEXT    NOT NULL,
    description TEXT    NOT NULL DEFAULT '',
    status      TEXT    NOT NULL,
    spotlighted BOOLEAN NOT NULL DEFAULT FALSE,
    position    INTEGER NOT NULL DEFAULT 0,
    public      BOOLEAN NOT NULL DEFAULT TRUE,
    updated_at  INTEGER NOT NULL
);

-- The contract promises a plan named free from the first start.
INSERT INTO plans (id, name, description, created_at, updated_at)
VALUES ('free', 'Free', 'The default plan.', CAST(strftime('%s', 'now') AS INTEGER) * 1000, CAST(strftime('%s', 'now') AS INTEGER) * 1000);
