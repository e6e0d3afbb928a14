-- Failed console sign-ins, counted in the database so that every node holds the same limits (issue 43):
-- per client address ('a:' and a hash of it) and per account ('e:' and a hash of the email as typed).
-- Only hashes are kept, so the table lists no addresses or emails.
CREATE TABLE sign_in_limits (
    limit_key TEXT    PRIMARY KEY,
    failures  INTEGER NOT NULL,
    -- The first failure of the current window (addresses) and the latest failure (accounts).
    first_at  INTEGER  NOT NULL,
    last_at   INTEGER  NOT NULL
);
CREATE INDEX sign_in_limits_last_at ON sign_in_limits (last_at);
