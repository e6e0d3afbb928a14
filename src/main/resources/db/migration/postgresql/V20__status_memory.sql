-- Status with a memory (issue 11): incidents with their updates, scheduled maintenance, and the history
-- of every service status change, from which uptime is computed.

-- When each service came to exist: uptime counts the time before it as no data.
ALTER TABLE services ADD COLUMN created_at BIGINT;
UPDATE services SET created_at = updated_at;

-- Every status change of every service. from_status is NULL for the status a service was created
-- with. source_type says what changed it (operator, incident, maintenance) and source_id which one.
CREATE TABLE status_changes (
    seq         BIGSERIAL PRIMARY KEY,
    service_id  TEXT    NOT NULL,
    from_status TEXT,
    to_status   TEXT    NOT NULL,
    source_type TEXT    NOT NULL CHECK (source_type IN ('operator', 'incident', 'maintenance')),
    source_id   TEXT,
    changed_at  BIGINT  NOT NULL
);
CREATE INDEX status_changes_service_time ON status_changes (service_id, changed_at, seq);
INSERT INTO status_changes (service_id, from_status, to_status, source_type, changed_at)
SELECT id, NULL, status, 'operator', updated_at FROM services;

CREATE TABLE incidents (
    seq         BIGSERIAL PRIMARY KEY,
    id          TEXT    NOT NULL UNIQUE,
    title       TEXT    NOT NULL,
    impact      TEXT    NOT NULL CHECK (impact IN ('none', 'minor', 'major', 'critical')),
    status      TEXT    NOT NULL CHECK (status IN ('investigating', 'identified', 'monitoring', 'resolved')),
    created_at  BIGINT  NOT NULL,
    updated_at  BIGINT  NOT NULL,
    resolved_at BIGINT
);
CREATE INDEX incidents_open ON incidents (status, seq);

CREATE TABLE incident_updates (
    seq         BIGSERIAL PRIMARY KEY,
    id          TEXT    NOT NULL UNIQUE,
    incident_id TEXT    NOT NULL REFERENCES incidents (id) ON DELETE CASCADE,
    status      TEXT    NOT NULL CHECK (status IN ('investigating', 'identified', 'monitoring', 'resolved')),
    message     TEXT    NOT NULL,
    created_at  BIGINT  NOT NULL
);
CREATE INDEX incident_updates_incident ON incident_updates (incident_id, seq);

-- The service statuses an update set, in the same transaction as the update.
CREATE TABLE incident_update_services (
    update_id   TEXT NOT NULL REFERENCES incident_updates (id) ON DELETE CASCADE,
    incident_id TEXT NOT NULL REFERENCES incidents (id) ON DELETE CASCADE,
    service_id  TEXT NOT NULL,
    status      TEXT NOT NULL,
    PRIMARY KEY (update_id, service_id)
);
CREATE INDEX incident_update_services_incident ON incident_update_services (incident_id);

-- A maintenance window moves scheduled -> in_progress -> completed; each step is a conditional update
-- of status, so only one node performs it.
CREATE TABLE maintenances (
    seq          BIGSERIAL PRIMARY KEY,
    id           TEXT    NOT NULL UNIQUE,
    title        TEXT    NOT NULL,
    message      TEXT    NOT NULL DEFAULT '',
    status       TEXT    NOT NULL CHECK (status IN ('scheduled', 'in_progress', 'completed')),
    starts_at    BIGINT  NOT NULL,
    ends_at      BIGINT  NOT NULL CHECK (ends_at > starts_at),
    created_at   BIGINT  NOT NULL,
    updated_at   BIGINT  NOT NULL,
    started_at   BIGINT,
    completed_at BIGINT
);
CREATE INDEX maintenances_due_start ON maintenances (status, starts_at);
CREATE INDEX maintenances_due_end ON maintenances (status, ends_at);

-- previous_status: the service's status when the window started, put back when it ends.
CREATE TABLE maintenance_services (
    maintenance_id  TEXT NOT NULL REFERENCES maintenances (id) ON DELETE CASCADE,
    service_id      TEXT NOT NULL,
    previous_status TEXT,
    PRIMARY KEY (maintenance_id, service_id)
);
CREATE INDEX maintenance_services_service ON maintenance_services (service_id);
