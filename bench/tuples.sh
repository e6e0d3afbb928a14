#!/usr/bin/env bash
# Rows written per spend, table by table, on PostgreSQL (docs/PERFORMANCE.md, "Spend cases against the
# pre-ledger-core build"): a count of database work that does not depend on how busy the machine is.
# Usage: bench/tuples.sh [jar, default target/pulseledger.jar] [accounts, default 1000] [seconds, default 10]
# Starts the jar on a fresh PostgreSQL database (PGHOST/PGPORT/PGUSER or 127.0.0.1:5432 postgres), makes
# the accounts with a key each, spends 1 token at a time spread over them for the given seconds (64
# connections, after 5 s of warm-up), and prints pg_stat_user_tables' inserts and updates (and how many
# of the updates were HOT) per spending inserted, then drops the database. (Per spending row rather than
# per 201: PostgreSQL reports a backend's counts up to a second late, so both ends of the window are off
# by a few percent, alike for every table.)
set -euo pipefail
cd "$(dirname "$0")/.."

command -v wrk >/dev/null || { echo "bench: wrk is missing (apt-get install -y wrk)" >&2; exit 2; }
JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"
jar="${1:-target/pulseledger.jar}"
accounts="${2:-1000}"
seconds="${3:-10}"
pg=(-h "${PGHOST:-127.0.0.1}" -p "${PGPORT:-5432}" -U "${PGUSER:-postgres}")
db="pulseledger_tuples_$$"
work="$(mktemp -d)"
admin="pl_admin_$(head -c 64 /dev/urandom | base64 | tr -dc 'A-Za-z0-9' | head -c 32)"
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
base="http://127.0.0.1:$port"

java_options="$(bench/java-options.sh)" # word-split below on purpose: one option a word
psql -q "${pg[@]}" -d postgres -c "CREATE DATABASE $db"
# shellcheck disable=SC2086
PULSELEDGER_ADMIN_KEY="$admin" "$JAVA" $java_options -jar "$jar" serve --host 127.0.0.1 --port "$port" \
  --database-url "jdbc:postgresql://${PGHOST:-127.0.0.1}:${PGPORT:-5432}/$db?user=${PGUSER:-postgres}" \
  >"$work/server.log" 2>&1 &
server=$!
cleanup() {
  kill "$server" 2>/dev/null || true
  wait "$server" 2>/dev/null || true
  psql -q "${pg[@]}" -d postgres -c "DROP DATABASE IF EXISTS $db" || true
  rm -rf "$work"
}
trap cleanup EXIT
for _ in $(seq 1 300); do
  curl -sf "$base/health/ready" >/dev/null && break
  sleep 0.2
done

for i in $(seq 1 "$accounts"); do
  account="$(curl -sf -X POST "$base/admin/accounts" -H "X-ApiKey: $admin" -H 'Content-Type: application/json' \
    -d "{\"name\":\"bench $i\",\"balance\":100000000}" | sed -E 's/.*"id":"([^"]+)".*/\1/')"
  curl -sf -X POST "$base/admin/accounts/$account/keys" -H "X-ApiKey: $admin" -H 'Content-Type: application/json' \
    -d '{"name":"bench"}' | sed -E 's/.*"key":"([^"]+)".*/\1/' >>"$work/keys"
  echo >>"$work/keys"
done

counts() {
  psql -At "${pg[@]}" -d "$db" -c \
    "SELECT relname, n_tup_ins, n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables ORDER BY relname"
}
wrk -t1 -c64 -d5s -s bench/wrk.lua "$base" -- POST /api/tokens/spend/1 "@$work/keys" >/dev/null
sleep 6 # the dashboard's counts of the warm-up are flushed, and the statistics reported
counts >"$work/before"
run="$(BENCH_TALLY=1 wrk -t1 -c64 -d"${seconds}s" -s bench/wrk.lua "$base" -- POST /api/tokens/spend/1 \
  "@$work/keys" | grep '^BENCH')"
sleep 6
counts >"$work/after"
spends="$(sed -E 's/.* status_201=([0-9]+).*/\1/' <<<"$run")"
echo "$jar: $spends spends over $accounts accounts in ${seconds} s"
python3 - "$work/before" "$work/after" <<'PY'
import sys

def load(path):
    rows = {}
    for line in open(path):
        name, inserted, updated, hot = line.strip().split("|")
        rows[name] = (int(inserted), int(updated), int(hot))
    return rows

before, after = load(sys.argv[1]), load(sys.argv[2])
spends = after["spendings"][0] - before.get("spendings", (0, 0, 0))[0]
total = 0
for name in sorted(after):
    old = before.get(name, (0, 0, 0))
    inserted, updated, hot = (after[name][i] - old[i] for i in range(3))
    if inserted or updated:
        print(f"  {name:<22} inserts {inserted / spends:.3f}  updates {updated / spends:.3f}"
              f" (HOT {hot / spends:.3f}) per spend")
        total += inserted + updated
print(f"  rows written per spend: {total / spends:.3f}")
PY
