-- SLA credits (CONTRACT §13, issue 39). Each ended period of an account on a plan with an SLA is measured
-- once: one row per account and period, credited or not; the primary key is the proof of "exactly once"
-- across nodes (the ledger's core also reads it with the account locked). grant_id names the sla_credit
-- grant when the period breached. plans.sla_since: when the plan's SLA was last set or changed; periods
-- that ended before it are not measured.
CREATE TABLE sla_periods (
    account_id     TEXT             NOT NULL REFERENCES accounts (id),
    period_start   BIGINT           NOT NULL,
    period_end     BIGINT           NOT NULL,
    uptime         DOUBLE PRECISION NOT NULL,
    period_allowance BIGINT NOT NULL CHECK (period_allowance >= 0),
    credit_percent INTEGER          NOT NULL CHECK (credit_percent BETWEEN 0 AND 100),
    amount         BIGINT           NOT NULL CHECK (amount >= 0),
    grant_id       TEXT,
    incidents      TEXT             NOT NULL,
    measured_at    BIGINT           NOT NULL,
    PRIMARY KEY (account_id, period_start)
);
ALTER TABLE plans ADD COLUMN sla_since BIGINT;
UPDATE plans SET sla_since = updated_at WHERE sla IS NOT NULL;
ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_kind_check;
ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_kind_check
    CHECK (kind IN ('credit', 'allowance', 'expire', 'spend', 'revert', 'hold', 'release', 'sla_credit'));
