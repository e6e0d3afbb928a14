-- Events (issue 6): the outbox, webhooks with their delivery log, and low-balance thresholds.

-- The outbox. Every row is written in the same transaction as the change it reports, so an event
-- exists exactly when its change committed. seq orders events in commit order (see Outbox).
CREATE TABLE events (
    seq        INTEGER PRIMARY KEY AUTOINCREMENT,
    id         TEXT    NOT NULL UNIQUE,
    type       TEXT    NOT NULL,
    payload    TEXT    NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE INDEX events_type_seq ON events (type, seq);
CREATE INDEX events_created ON events (created_at);

CREATE TABLE webhooks (
    id          TEXT    PRIMARY KEY,
    url         TEXT    NOT NULL,
    description TEXT    NOT NULL DEFAULT '',
    secret      TEXT    NOT NULL,
    created_at  INTEGER NOT NULL
);

CREATE TABLE webhook_subscriptions (
    event_type TEXT NOT NULL,
    webhook_id TEXT NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    PRIMARY KEY (event_type, webhook_id)
);
CREATE INDEX webhook_subscriptions_webhook ON webhook_subscriptions (webhook_id);

-- One row per (webhook, event). next_attempt_at is when a worker may claim it next; a claimed row
-- carries the claim token and a lease in next_attempt_at, so a crashed worker's claim expires.
CREATE TABLE webhook_deliveries (
    seq             INTEGER PRIMARY KEY AUTOINCREMENT,
    id              TEXT    NOT NULL UNIQUE,
    webhook_id      TEXT    NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    event_id        TEXT    NOT NULL REFERENCES events (id),
    status          TEXT    NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER,
    claim           TEXT,
    created_at      INTEGER NOT NULL,
    finished_at     INTEGER
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_webhook_seq ON webhook_deliveries (webhook_id, seq);
CREATE INDEX webhook_deliveries_event ON webhook_deliveries (event_id);

CREATE TABLE webhook_attempts (
    delivery_id TEXT    NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
    attempt     INTEGER NOT NULL,
    started_at  INTEGER NOT NULL,
    duration_ms INTEGER NOT NULL,
    status_code INTEGER,
    error       TEXT,
    PRIMARY KEY (delivery_id, attempt)
);

-- balance.low fires when a spend takes the balance from >= threshold to below it. An account's own
-- threshold overrides its plan's; NULL means none.
ALTER TABLE plans ADD COLUMN low_balance_threshold INTEGER CHECK (low_balance_threshold > 0);
ALTER TABLE accounts ADD COLUMN low_balance_threshold INTEGER CHECK (low_balance_threshold > 0);
