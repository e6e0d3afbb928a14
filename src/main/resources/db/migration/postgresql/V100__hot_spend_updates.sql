-- A spend updates its account's balance and its grant's remaining tokens. PostgreSQL can update a row in
-- place, without new entries in the table's indexes (a HOT update), only when no indexed column changes
-- and the page has room. grants_live had remaining in its predicate, so every spend added an entry to each
-- of the grants indexes. It now keys on live, a stored column that changes only when a grant runs out or
-- comes back. Pages keep a fifth free for the new row versions.
ALTER TABLE grants ADD COLUMN live BOOLEAN GENERATED ALWAYS AS (remaining > 0) STORED;
DROP INDEX grants_live;
CREATE INDEX grants_live ON grants (account_id) WHERE live;
ALTER TABLE grants SET (fillfactor = 80);
ALTER TABLE accounts SET (fillfactor = 80);
ALTER TABLE spend_activity SET (fillfactor = 80);
