-- Upstream services (CONTRACT §16, status-plus): a service may follow a component of another
-- Statuspage-compatible status page. next_poll_at is claimed by a conditional update, so one node
-- reads each due upstream; unreachable_since stays set from the first failed read until one succeeds.
CREATE TABLE service_upstreams (
    service_id        TEXT   PRIMARY KEY REFERENCES services (id) ON DELETE CASCADE,
    url               TEXT   NOT NULL,
    component         TEXT   NOT NULL,
    etag              TEXT,
    checked_at        INTEGER,
    unreachable_since INTEGER,
    last_error        TEXT,
    next_poll_at      INTEGER NOT NULL
);
CREATE INDEX service_upstreams_due ON service_upstreams (next_poll_at);
