-- A plan's SLA (CONTRACT §13, issue 39): its services and credit tiers as one line of text,
-- "api,dashboard|0.999:10,0.99:25" (accounts/SlaTerms); NULL for a plan without one.
ALTER TABLE plans ADD COLUMN sla TEXT;
