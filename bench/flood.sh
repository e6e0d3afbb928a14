#!/usr/bin/env bash
# The flood benchmark of issue 17 (docs/OPERATIONS.md, "Floods of made-up keys"): a legitimate
# caller's spend rate and p99 on its own, then while another client floods random keys.
# Usage: bench/flood.sh [seconds per run, default 10] [database URL, default a fresh SQLite file]
# The flood is paced like the issue's (one client, 32 connections, about 10,000 requests/s): each
# connection pauses FLOOD_PAUSE_MS (default 1) after every answer, so at most 32,000 requests/s and in
# practice 4,000-9,000 on the shared 2-core machine. Unpaced (FLOOD_PAUSE_MS=0), wrk takes as much CPU
# as it can get, and on 2 cores that measures the flooder's appetite more than the node's cost per
# flood request.
# The node holds each flood refusal --auth-failure-hold-ms (1000 by default; FLOOD_HOLD_MS sets it),
# which slows a client that waits for its answers; FLOOD_HOLD_MS=0 measures the node answering every
# flood request at once.
set -euo pipefail
cd "$(dirname "$0")/.."

command -v wrk >/dev/null || { echo "bench: wrk is missing (apt-get install -y wrk)" >&2; exit 2; }
JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"
if [[ ! -f target/pulseledger.jar || -n "$(find src pom.xml -newer target/pulseledger.jar -print -quit)" ]]; then
  ./mvnw -B -q package -DskipTests
fi

seconds="${1:-10}"
pause_ms="${FLOOD_PAUSE_MS:-1}"
hold_ms="${FLOOD_HOLD_MS:-1000}"
work="$(mktemp -d)"
url="${2:-jdbc:sqlite:$work/pulseledger.db}"
admin="pl_admin_$(head -c 64 /dev/urandom | base64 | tr -dc 'A-Za-z0-9' | head -c 32)"
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
base="http://127.0.0.1:$port"

java_options="$(bench/java-options.sh)" # word-split below on purpose: one option a word
# shellcheck disable=SC2086
PULSELEDGER_ADMIN_KEY="$admin" "$JAVA" $java_options -jar target/pulseledger.jar serve \
  --host 127.0.0.1 --port "$port" --database-url "$url" --auth-failure-hold-ms "$hold_ms" >"$work/server.log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null; wait "$server" 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 1 300); do
  curl -sf "$base/health/ready" >/dev/null && break
  sleep 0.2
done

account="$(curl -sf -X POST "$base/admin/accounts" -H "X-ApiKey: $admin" -H 'Content-Type: application/json' \
  -d '{"name":"legit","balance":1000000000000}' | sed -E 's/.*"id":"([^"]+)".*/\1/')"
key="$(curl -sf -X POST "$base/admin/accounts/$account/keys" -H "X-ApiKey: $admin" -H 'Content-Type: application/json' \
  -d '{"name":"legit"}' | sed -E 's/.*"key":"([^"]+)".*/\1/')"
# 20,000 made-up keys of the real shape; the flood cycles through them.
python3 -c "import secrets, string; a = string.ascii_letters + string.digits
print('\n'.join('pl_' + ''.join(secrets.choice(a) for _ in range(32)) for _ in range(20000)))" >"$work/keys"

field() { sed -E "s/.* $1=([0-9.]+).*/\\1/" <<<"$2"; }
metric_sum() { # metric_sum REGEX: the sum of the node's samples whose name and labels match REGEX
  curl -sf "$base/metrics" | awk -v pattern="$1" '$0 ~ pattern {sum += $2} END {printf "%d", sum}'
}
# Authentication reads only through the "lookups" pool (key lookups and the access change feed), so
# that pool's count is all the database work the flood can cause; the legitimate spends use the other.
transactions() { metric_sum '^pulseledger_db_transactions_total\\{.*pool="lookups"'; }
# Every transaction of the node, in both pools: background work included.
all_transactions() { metric_sum '^pulseledger_db_transactions_total\\{'; }
# Counted where they happen: the reads that requests cause on the way to authentication (a key's
# lookup, an access-feed read asked for early). The feed's scheduled reads are not among them.
auth_reads() { metric_sum '^pulseledger_(key_lookups_total |access_feed_reads_total\\{.*trigger="demand")'; }
# The node's CPU time so far, in clock ticks (utime + stime of /proc/PID/stat).
cpu_ticks() { awk '{print $14 + $15}' "/proc/$server/stat"; }
flood() {
  BENCH_TALLY=1 BENCH_PAUSE_MS="$pause_ms" wrk -t1 -c32 -d"$1s" -s bench/wrk.lua "$base" -- GET /api/tokens/balance \
    "@$work/keys" | grep '^BENCH'
}
legit() { wrk -t1 -c8 -d"${seconds}s" -s bench/wrk.lua "$base" -- POST /api/tokens/spend/1 "$key" | grep '^BENCH'; }

wrk -t1 -c8 -d2s -s bench/wrk.lua "$base" -- POST /api/tokens/spend/1 "$key" >/dev/null # warm-up

# Nothing at all for as long as a run, then the flood on its own: every database transaction of
# the node (background work included) in both windows, and what the node spends on a flood request.
idle_all_before="$(all_transactions)"
sleep "$seconds"
idle_all_after="$(all_transactions)"
alone_all_before="$(all_transactions)"
alone_auth_before="$(auth_reads)"
cpu_before="$(cpu_ticks)"
flood_alone="$(flood "$seconds")"
cpu_after="$(cpu_ticks)"
alone_all_after="$(all_transactions)"
alone_auth_after="$(auth_reads)"

# Then ROUNDS (default 3) of: the caller alone, the caller flooded. Alternating them means that other
# work on a shared machine weighs on both sides alike; the medians of the rounds are reported.
rounds="${ROUNDS:-3}"
: >"$work/rounds"
for round in $(seq 1 "$rounds"); do
  idle_before="$(transactions)"
  idle_start="$(date +%s.%N)"
  alone="$(legit)"
  idle_after="$(transactions)"
  idle_end="$(date +%s.%N)"

  before="$(transactions)"
  auth_before="$(auth_reads)"
  flood_start="$(date +%s.%N)"
  flood "$((seconds + 2))" >"$work/flood" &
  flood=$!
  sleep 1
  flooded="$(legit)"
  wait "$flood"
  after="$(transactions)"
  auth_after="$(auth_reads)"
  flood_end="$(date +%s.%N)"
  flood_line="$(cat "$work/flood")"
  echo "Round $round: alone $(field rps "$alone") spends/s p99 $(field p99_us "$alone") µs;" \
    "flooded $(field rps "$flooded") spends/s p99 $(field p99_us "$flooded") µs;" \
    "flood $(field rps "$flood_line")/s $(grep -oE 'status_[0-9]+=[0-9]+' <<<"$flood_line" | tr '\n' ' ')"
  echo "$alone|$flooded|$flood_line|$before|$after|$auth_before|$auth_after|$idle_before|$idle_after|$idle_start|$idle_end|$flood_start|$flood_end" \
    >>"$work/rounds"
done

echo "Flood pause ${pause_ms} ms per connection (32 connections), refusals held ${hold_ms} ms;" \
  "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$work/rounds" "$flood_alone" "$((cpu_after - cpu_before))" "$(getconf CLK_TCK)" "$hold_ms" \
  "$((idle_all_after - idle_all_before))" "$((alone_all_after - alone_all_before))" \
  "$((alone_auth_after - alone_auth_before))" <<'PY'
import re, statistics, sys
get = lambda line, name: float(re.search(r"\b%s=([0-9.]+)" % name, line).group(1))
rounds_file, flood_alone, ticks, ticks_per_second, hold_ms = sys.argv[1:6]
idle_all, alone_all, alone_auth = map(int, sys.argv[6:])
alone_requests = get(flood_alone, "requests")
# With refusals held, the flood is too thin for the node's background work to be negligible beside it.
if hold_ms == "0":
    print("Node CPU per flood request (flood alone, %.0f/s): %.1f µs" % (get(flood_alone, "rps"),
          1e6 * int(ticks) / int(ticks_per_second) / alone_requests))
kept, p99s, used, auth, background, flood_requests, flood_seconds = [], [], 0, 0, 0.0, 0, 0.0
for row in open(rounds_file).read().splitlines():
    alone, flooded, flood, before, after, auth_before, auth_after, *times = row.split("|")
    idle_before, idle_after, idle_start, idle_end, flood_start, flood_end = map(float, times)
    kept.append(get(flooded, "rps") / get(alone, "rps"))
    p99s.append(get(flooded, "p99_us") / get(alone, "p99_us"))
    used += int(after) - int(before)
    auth += int(auth_after) - int(auth_before)
    # The access feed reads the change log 4 times a second whatever happens; its rate while only
    # the legitimate caller (whose key is known) ran is taken out, so what remains is the flood's.
    background += (idle_after - idle_before) / (idle_end - idle_start) * (flood_end - flood_start)
    flood_requests += get(flood, "requests")
    flood_seconds += flood_end - flood_start
print("Spend rate kept, median of %d rounds: %.0f %% (target >= 80 %%); rounds: %s"
      % (len(kept), 100 * statistics.median(kept), ", ".join("%.0f %%" % (100 * k) for k in kept)))
print("p99 flooded / alone, median: %.2f (target <= 3); rounds: %s"
      % (statistics.median(p99s), ", ".join("%.2f" % p for p in p99s)))
print("Flood alone, raw: %d database transactions (both pools, background work included) for %d flood requests,"
      " %.4f per request; %d in an equal window just before with no traffic at all; difference %.4f per request"
      % (alone_all, alone_requests, alone_all / alone_requests, idle_all,
         (alone_all - idle_all) / alone_requests))
print("Flooded rounds, raw: %d key lookups and access feed reads for %d flood requests, %.4f per request;"
      " less the feed's %.0f background reads (its rate while the caller ran alone): %.4f per request, %.1f a second"
      % (used, flood_requests, used / flood_requests, background,
         max(0.0, used - background) / flood_requests, max(0.0, used - background) / flood_seconds))
print("Attributed (key lookups and early feed reads, counted where they happen): %d in the flood alone, %d in the"
      " flooded rounds: %.4f per flood request (target < 0.01)"
      % (alone_auth, auth, (alone_auth + auth) / (alone_requests + flood_requests)))
PY
