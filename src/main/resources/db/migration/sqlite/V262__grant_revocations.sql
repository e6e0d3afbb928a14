-- Revoked credit grants (CONTRACT §13, issue 39): what was left of the grant expired with an expire line
-- when an operator revoked it; the primary key makes a grant revoked once, on any number of nodes.
CREATE TABLE grant_revocations (
    grant_id   TEXT    PRIMARY KEY,
    account_id TEXT    NOT NULL REFERENCES accounts (id),
    amount     INTEGER NOT NULL CHECK (amount >= 0),
    revoked_at INTEGER NOT NULL
);
