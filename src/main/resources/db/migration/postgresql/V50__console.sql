-- The operator console (issue 14): its sessions, the account search index and the dashboard's activity.

-- A signed-in operator's session. Only the SHA-256 of the session id is kept, so a copy of the
-- database signs nobody in. last_seen_at drives the idle expiry, created_at the absolute one.
CREATE TABLE console_sessions (
    id_hash      TEXT    PRIMARY KEY,
    created_at   BIGINT  NOT NULL,
    last_seen_at BIGINT  NOT NULL
);
CREATE INDEX console_sessions_last_seen ON console_sessions (last_seen_at);

-- Account search by name prefix, case-insensitive, with keyset paging on (lower(name), id). The
-- "C" collation makes a prefix a contiguous byte range whatever the database's default collation.
CREATE INDEX accounts_name_search ON accounts ((lower(name) COLLATE "C"), id);

-- Spends and refused spends (402) per account per hour, summed from every node's counters.
CREATE TABLE spend_activity (
    hour_start BIGINT  NOT NULL,
    account_id TEXT    NOT NULL,
    spends     BIGINT  NOT NULL,
    tokens     BIGINT  NOT NULL,
    refusals   BIGINT  NOT NULL,
    PRIMARY KEY (hour_start, account_id)
);

-- The dashboard counts failed webhook attempts of the last day.
CREATE INDEX webhook_attempts_started ON webhook_attempts (started_at);
