#!/usr/bin/env bash
# Times GET /api/tokens/usage's and balance?at's SQL on PostgreSQL with 10,000 and then 10,000,000 ledger
# spend lines (10,000 accounts, spread over 90 days), with EXPLAIN ANALYZE of the exact statements.
# Usage: bench/usage-scale.sh   (needs target/pulseledger.jar and PostgreSQL at 127.0.0.1:5432, user postgres)
set -euo pipefail
cd "$(dirname "$0")/.."
db=pulseledger_usage_scale
psql_db() { psql -X -q -h 127.0.0.1 -U postgres -d "$db" "$@"; }
psql -X -q -h 127.0.0.1 -U postgres -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db"
java -jar target/pulseledger.jar serve --port 0 --admin-key usage-scale-admin-0123456789 \
  --database-url "jdbc:postgresql://127.0.0.1:5432/$db?user=postgres" > /tmp/usage-scale-node.log 2>&1 &
node=$!
until grep -q "listening on" /tmp/usage-scale-node.log; do sleep 0.5; done
kill "$node"; wait "$node" || true

psql_db <<'SQL'
INSERT INTO accounts (id, name, plan_id, balance, created_at)
SELECT 'acct_' || lpad(i::text, 26, '0'), 'bench ' || i, 'free', 0, 1767225600000 FROM generate_series(1, 10000) i;
SQL

seed() { # $1 lines per account
  psql_db -c "TRUNCATE ledger_entries" -c "
INSERT INTO ledger_entries (account_id, kind, amount, balance_after, spending_id, created_at)
SELECT 'acct_' || lpad(a::text, 26, '0'), 'spend', -10, 1000000, 'sp_' || a || '_' || n,
       1767225600000 + (n::bigint * 7776000000 / $1) + a
FROM generate_series(1, 10000) a, generate_series(1, $1) n;" -c "ANALYZE ledger_entries"
}

measure() { # $1 label
  local account="acct_$(printf '%026d' 4242)"
  echo "== $1: $(psql_db -At -c 'SELECT count(*) FROM ledger_entries') ledger lines"
  for granularity in "hour 3600000 1769904000000 1770508800000" "day 86400000 1767225600000 1769904000000"; do
    set -- $granularity
    echo "-- usage by $1 (one account, $(( ($4 - $3) / $2 )) buckets)"
    psql_db -At -c "EXPLAIN (ANALYZE, COSTS OFF) SELECT period, SUM(spent), SUM(reverted), COUNT(DISTINCT spending)
      FROM (SELECT created_at / $2 AS period, CASE WHEN kind = 'spend' THEN -amount ELSE 0 END AS spent,
                   CASE WHEN kind = 'revert' THEN amount ELSE 0 END AS reverted,
                   CASE WHEN kind = 'spend' THEN spending_id END AS spending
            FROM ledger_entries WHERE account_id = '$account' AND created_at >= $3 AND created_at < $4
              AND kind IN ('spend', 'revert')) lines GROUP BY period" | grep -E "Index|Execution Time"
  done
  echo "-- balance at an instant"
  psql_db -At -c "EXPLAIN (ANALYZE, COSTS OFF) SELECT balance_after FROM ledger_entries WHERE account_id = '$account'
      AND created_at <= 1770000000000 ORDER BY created_at DESC, seq DESC LIMIT 1" | grep -E "Index|Execution Time"
}

seed 1; measure "10,000 spendings"
seed 1000; measure "10,000,000 spendings"
psql -X -q -h 127.0.0.1 -U postgres -c "DROP DATABASE $db"
