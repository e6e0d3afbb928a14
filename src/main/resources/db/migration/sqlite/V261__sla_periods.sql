-- SLA credits (CONTRACT §13, issue 39). Each ended period of an account on a plan with an SLA is measured
-- once: one row per account and period, credited or not; the primary key is the proof of "exactly once"
-- across nodes (the ledger's core also reads it with the account locked). grant_id names the sla_credit
-- grant when the period breached. plans.sla_since: when the plan's SLA was last set or changed; periods
-- that ended before it are not measured. SQLite cannot change a CHECK in place, so ledger_entries is
-- rebuilt (as V190 did) to allow the kind sla_credit, with its rows, seq values and indexes unchanged.
CREATE TABLE sla_periods (
    account_id     TEXT    NOT NULL REFERENCES accounts (id),
    period_start   INTEGER NOT NULL,
    period_end     INTEGER NOT NULL,
    uptime         REAL    NOT NULL,
    period_allowance INTEGER NOT NULL CHECK (period_allowance >= 0),
    credit_percent INTEGER NOT NULL CHECK (credit_percent BETWEEN 0 AND 100),
    amount         INTEGER NOT NULL CHECK (amount >= 0),
    grant_id       TEXT,
    incidents      TEXT    NOT NULL,
    measured_at    INTEGER NOT NULL,
    PRIMARY KEY (account_id, period_start)
);
ALTER TABLE plans ADD COLUMN sla_since INTEGER;
UPDATE plans SET sla_since = updated_at WHERE sla IS NOT NULL;

CREATE TABLE ledger_entries_v261 (
    seq           INTEGER PRIMARY KEY,
    account_id    TEXT    NOT NULL REFERENCES accounts (id),
    kind          TEXT    NOT NULL
                  CHECK (kind IN ('credit', 'allowance', 'expire', 'spend', 'revert', 'hold', 'release',
                                  'sla_credit')),
    amount        INTEGER NOT NULL,
    balance_after INTEGER NOT NULL CHECK (balance_after >= 0),
    spending_id   TEXT,
    reason        TEXT,
    created_at    INTEGER NOT NULL,
    grant_id      TEXT
);
INSERT INTO ledger_entries_v261 (seq, account_id, kind, amount, balance_after, spending_id, reason, created_at,
                                 grant_id)
SELECT seq, account_id, kind, amount, balance_after, spending_id, reason, created_at, grant_id FROM ledger_entries;
DROP TABLE ledger_entries;
ALTER TABLE ledger_entries_v261 RENAME TO ledger_entries;
CREATE INDEX ledger_entries_spending ON ledger_entries (spending_id);
CREATE INDEX ledger_entries_account_time ON ledger_entries (account_id, created_at);
