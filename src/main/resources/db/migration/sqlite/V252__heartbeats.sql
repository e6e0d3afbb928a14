-- Heartbeats (CONTRACT §16, status-plus). A service's job calls a secret URL (only its SHA-256 is
-- kept); when none arrives for grace_seconds one node claims the miss with a conditional update of
-- missed_at, sets the service to status_when_missed and opens a draft incident; beats returning are
-- claimed the same way, once. Drafts are incidents only operators see until they are published.
CREATE TABLE incident_drafts (
    incident_id TEXT PRIMARY KEY REFERENCES incidents (id) ON DELETE CASCADE
);

CREATE TABLE heartbeats (
    service_id         TEXT    PRIMARY KEY REFERENCES services (id) ON DELETE CASCADE,
    secret_hash        TEXT    NOT NULL UNIQUE,
    grace_seconds      INTEGER NOT NULL,
    status_when_missed TEXT    NOT NULL,
    last_beat_at       INTEGER NOT NULL,
    missed_at          INTEGER,
    status_before      TEXT,
    incident_id        TEXT,
    created_at         INTEGER NOT NULL
);
CREATE INDEX heartbeats_watch ON heartbeats (missed_at, last_beat_at);
