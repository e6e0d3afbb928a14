-- Most spendings are paid by one grant. Such a spending names it in its own row (grant_id) instead of a
-- spending_grants row, which saves a row and an index entry per spend; what it returned to that grant is
-- its reverted_amount. spending_grants keeps the spendings that several grants paid, and reservations.
ALTER TABLE spendings ADD COLUMN grant_id TEXT;

-- What every spending and reservation drew from each grant, in either form: the one place to read it.
CREATE VIEW allocations AS
SELECT id AS spending_id, grant_id, amount, reverted_amount AS returned FROM spendings WHERE grant_id IS NOT NULL
UNION ALL
SELECT spending_id, grant_id, amount, returned FROM spending_grants;
