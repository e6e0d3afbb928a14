-- The status page grows up (CONTRACT §16, status-plus): service groups, and two new sources of a
-- status change in the history: an upstream status page followed, and a heartbeat missed or back.
CREATE TABLE service_groups (
    id         TEXT    PRIMARY KEY,
    name       TEXT    NOT NULL,
    position   INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);

-- Deleting a group leaves its services ungrouped.
ALTER TABLE services ADD COLUMN group_id TEXT REFERENCES service_groups (id) ON DELETE SET NULL;
CREATE INDEX services_group ON services (group_id);

-- SQLite cannot change a CHECK in place: the history table is rebuilt with the wider one.
CREATE TABLE status_changes_new (
    seq         INTEGER PRIMARY KEY AUTOINCREMENT,
    service_id  TEXT    NOT NULL,
    from_status TEXT,
    to_status   TEXT    NOT NULL,
    source_type TEXT    NOT NULL CHECK (source_type IN ('operator', 'incident', 'maintenance', 'upstream', 'heartbeat')),
    source_id   TEXT,
    changed_at  INTEGER NOT NULL
);
INSERT INTO status_changes_new (seq, service_id, from_status, to_status, source_type, source_id, changed_at)
SELECT seq, service_id, from_status, to_status, source_type, source_id, changed_at FROM status_changes;
DROP TABLE status_changes;
ALTER TABLE status_changes_new RENAME TO status_changes;
CREATE INDEX status_changes_service_time ON status_changes (service_id, changed_at, seq);
