-- The status page grows up (CONTRACT §16, status-plus): service groups, and two new sources of a
-- status change in the history: an upstream status page followed, and a heartbeat missed or back.
CREATE TABLE service_groups (
    id         TEXT    PRIMARY KEY,
    name       TEXT    NOT NULL,
    position   INTEGER NOT NULL DEFAULT 0,
    created_at BIGINT  NOT NULL,
    updated_at BIGINT  NOT NULL
);

-- Deleting a group leaves its services ungrouped.
ALTER TABLE services ADD COLUMN group_id TEXT REFERENCES service_groups (id) ON DELETE SET NULL;
CREATE INDEX services_group ON services (group_id);

ALTER TABLE status_changes DROP CONSTRAINT IF EXISTS status_changes_source_type_check;
ALTER TABLE status_changes ADD CONSTRAINT status_changes_source_type_check
    CHECK (source_type IN ('operator', 'incident', 'maintenance', 'upstream', 'heartbeat'));
