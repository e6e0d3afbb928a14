-- Operators with names and roles (issue 43, CONTRACT §17). Every admin key and console session belongs
-- to one operator; the admin keys of an existing deployment become the first owner's.

CREATE TABLE operators (
    id             TEXT   PRIMARY KEY,
    name           TEXT   NOT NULL,
    -- Lower-cased; NULL for the first owner until someone gives it one.
    email          TEXT   UNIQUE,
    role           TEXT   NOT NULL CHECK (role IN ('owner', 'billing', 'status', 'viewer')),
    -- Argon2id in PHC string form; NULL: this operator cannot sign in to the console with a password.
    password_hash  TEXT,
    -- The TOTP secret (RFC 6238) once confirmed, and the last time step a code was accepted for, so a
    -- code is never accepted twice.
    totp_secret    TEXT,
    totp_last_step BIGINT,
    created_at     BIGINT NOT NULL,
    updated_at     BIGINT NOT NULL,
    disabled_at    BIGINT
);

INSERT INTO operators (id, name, email, role, created_at, updated_at)
VALUES ('op_first_owner', 'First owner', NULL, 'owner', (extract(epoch FROM now()) * 1000)::BIGINT,
        (extract(epoch FROM now()) * 1000)::BIGINT);

-- Recovery codes for an operator with TOTP: only their SHA-256 is kept, each works once.
CREATE TABLE operator_recovery_codes (
    operator_id TEXT   NOT NULL REFERENCES operators (id),
    code_hash   TEXT   NOT NULL,
    used_at     BIGINT,
    PRIMARY KEY (operator_id, code_hash)
);

ALTER TABLE admin_keys ADD COLUMN id TEXT;
ALTER TABLE admin_keys ADD COLUMN operator_id TEXT REFERENCES operators (id);
ALTER TABLE admin_keys ADD COLUMN name TEXT;
ALTER TABLE admin_keys ADD COLUMN revoked_at BIGINT;
UPDATE admin_keys SET id = 'akey_' || substr(md5(key_hash), 1, 26), operator_id = 'op_first_owner',
    name = 'first admin key';
CREATE UNIQUE INDEX admin_keys_id ON admin_keys (id);
CREATE INDEX admin_keys_operator ON admin_keys (operator_id);

-- Sessions from before operators name nobody: they end with the upgrade.
DELETE FROM console_sessions;
ALTER TABLE console_sessions ADD COLUMN operator_id TEXT REFERENCES operators (id);
CREATE INDEX console_sessions_operator ON console_sessions (operator_id);

-- Who did what: every change through the operator API or the console.
CREATE TABLE audit_log (
    seq           BIGSERIAL PRIMARY KEY,
    at            BIGINT  NOT NULL,
    operator_id   TEXT    NOT NULL,
    operator_name TEXT    NOT NULL,
    -- 'key' or 'session', and the admin key's id or the session's short reference.
    via           TEXT    NOT NULL,
    credential    TEXT    NOT NULL,
    method        TEXT    NOT NULL,
    path          TEXT    NOT NULL,
    status        INTEGER NOT NULL
);
CREATE INDEX audit_log_at ON audit_log (at);
CREATE INDEX audit_log_operator_at ON audit_log (operator_id, at);

-- The access change log learns a fourth kind: an operator changed (role, disabled, keys).
ALTER TABLE access_changes DROP CONSTRAINT access_changes_kind_check;
ALTER TABLE access_changes ADD CONSTRAINT access_changes_kind_check
    CHECK (kind IN ('key', 'account', 'plan', 'operator'));
