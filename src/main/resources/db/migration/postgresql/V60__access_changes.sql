-- Changes that decide who may call (issue 10): a key created or revoked, an account's plan or status
-- changed, a plan edited. Every node follows this log to keep its key cache and its view of which key
-- hashes exist, so a revocation anywhere reaches every node within a second. Rows are written in the
-- transaction of the change they report, and seq orders them in commit order (see AccessChangeLog).
CREATE TABLE access_changes (
    seq        BIGSERIAL PRIMARY KEY,
    kind       TEXT    NOT NULL CHECK (kind IN ('key', 'account', 'plan')),
    subject    TEXT    NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX access_changes_created ON access_changes (created_at);
