-- Nothing reads the allocations view of V160: verify reads a spending's draws in their two forms apart
-- (PostgreSQL could not estimate the groups of its UNION ALL), and the ledger reads them per spending.
DROP VIEW allocations;
