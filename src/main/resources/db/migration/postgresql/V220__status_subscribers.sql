-- Status subscribers and notices (issue 41, CONTRACT §15).

-- A subscriber: an email address (double opt-in: confirmed_at stays NULL until the link in the
-- confirmation mail is followed, and the row is deleted at expires_at if it never is) or an
-- operator's webhook (its endpoint and secret live in webhooks). all_services, or the services listed
-- in status_subscriber_services.
CREATE TABLE status_subscribers (
    seq          BIGSERIAL PRIMARY KEY,
    id           TEXT    NOT NULL UNIQUE,
    kind         TEXT    NOT NULL CHECK (kind IN ('email', 'webhook')),
    email        TEXT    UNIQUE,
    webhook_id   TEXT    UNIQUE REFERENCES webhooks (id) ON DELETE CASCADE,
    all_services BOOLEAN NOT NULL,
    created_at   BIGINT  NOT NULL,
    confirmed_at BIGINT,
    expires_at   BIGINT,
    CHECK ((kind = 'email') = (email IS NOT NULL)),
    CHECK ((kind = 'webhook') = (webhook_id IS NOT NULL))
);
CREATE INDEX status_subscribers_unconfirmed ON status_subscribers (expires_at) WHERE confirmed_at IS NULL;

CREATE TABLE status_subscriber_services (
    subscriber_id TEXT NOT NULL REFERENCES status_subscribers (id) ON DELETE CASCADE,
    service_id    TEXT NOT NULL,
    PRIMARY KEY (subscriber_id, service_id)
);
CREATE INDEX status_subscriber_services_service ON status_subscriber_services (service_id);

-- The links in mails carry random tokens; only their SHA-256 is kept, each for one purpose.
CREATE TABLE status_subscriber_tokens (
    hash          TEXT   PRIMARY KEY,
    subscriber_id TEXT   NOT NULL REFERENCES status_subscribers (id) ON DELETE CASCADE,
    purpose       TEXT   NOT NULL CHECK (purpose IN ('confirm', 'manage', 'unsubscribe')),
    expires_at    BIGINT NOT NULL
);
CREATE INDEX status_subscriber_tokens_subscriber ON status_subscriber_tokens (subscriber_id);
CREATE INDEX status_subscriber_tokens_expires ON status_subscriber_tokens (expires_at);

-- Subscribe requests per client address and confirmation mails per email address, per fixed window,
-- counted here so that the limits hold across nodes. key_hash is a SHA-256: no address is stored.
CREATE TABLE status_subscribe_counts (
    scope        TEXT    NOT NULL,
    key_hash     TEXT    NOT NULL,
    window_start BIGINT  NOT NULL,
    count        INTEGER NOT NULL,
    PRIMARY KEY (scope, key_hash, window_start)
);
CREATE INDEX status_subscribe_counts_window ON status_subscribe_counts (window_start);

-- A notice, written on the transaction of the change it reports; seq is drawn under the outbox's lock,
-- so notices commit in seq order. Fanned out to status_mails in batches after fanout_after (a
-- subscriber seq), oldest notice first.
CREATE TABLE status_notices (
    seq          BIGSERIAL PRIMARY KEY,
    id           TEXT    NOT NULL UNIQUE,
    type         TEXT    NOT NULL,
    payload      TEXT    NOT NULL,
    all_services BOOLEAN NOT NULL,
    created_at   BIGINT  NOT NULL,
    fanout_after BIGINT  NOT NULL DEFAULT 0,
    fanned_out   BOOLEAN NOT NULL DEFAULT FALSE
);
CREATE INDEX status_notices_unfanned ON status_notices (seq) WHERE NOT fanned_out;
CREATE INDEX status_notices_created ON status_notices (created_at);

CREATE TABLE status_notice_services (
    notice_id  TEXT NOT NULL REFERENCES status_notices (id) ON DELETE CASCADE,
    service_id TEXT NOT NULL,
    PRIMARY KEY (notice_id, service_id)
);

-- One mail to one subscriber: a confirmation, a manage link, or a notice (at most one per notice and
-- subscriber). Claimed like webhook deliveries (a claim token and a lease in next_attempt_at).
CREATE TABLE status_mails (
    seq             BIGSERIAL PRIMARY KEY,
    id              TEXT    NOT NULL UNIQUE,
    subscriber_id   TEXT    NOT NULL REFERENCES status_subscribers (id) ON DELETE CASCADE,
    kind            TEXT    NOT NULL CHECK (kind IN ('confirm', 'manage', 'notice')),
    notice_id       TEXT    REFERENCES status_notices (id) ON DELETE CASCADE,
    status          TEXT    NOT NULL CHECK (status IN ('pending', 'sent', 'failed')),
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at BIGINT,
    claim           TEXT,
    last_error      TEXT,
    created_at      BIGINT  NOT NULL,
    sent_at         BIGINT,
    UNIQUE (notice_id, subscriber_id)
);
CREATE INDEX status_mails_due ON status_mails (next_attempt_at) WHERE status = 'pending';
CREATE INDEX status_mails_subscriber_pending ON status_mails (subscriber_id, seq) WHERE status = 'pending';
CREATE INDEX status_mails_created ON status_mails (created_at);
