#!/usr/bin/env bash
# A private PostgreSQL configured as docs/PRODUCTION.md advises, for the scale case (docs/PERFORMANCE.md,
# "Scale on a PostgreSQL sized as PRODUCTION.md advises"); the machine's own server is left as it is.
# Usage: bench/tuned-postgres.sh start|stop [data folder, default /tmp/pulseledger-bench-pg]
# start: makes the cluster (once) and starts it on 127.0.0.1:$TUNED_PG_PORT (default 5433), trust auth,
# user postgres; then run the bench against it: bench/run.sh --cases scale --pg-port 5433
# The settings: shared_buffers a quarter of RAM, at most 4 GB (PostgreSQL's usual advice), room for the
# WAL between checkpoints (max_wal_size 8 GB, checkpoint_timeout 15 min), its files kept once made
# (min_wal_size 2 GB), WAL pages compressed. Every other setting, synchronous_commit = on among them,
# is PostgreSQL's default.
set -euo pipefail

action="${1:-}"
data="${2:-/tmp/pulseledger-bench-pg}"
port="${TUNED_PG_PORT:-5433}"
bin="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)"
[[ -x "$bin/pg_ctl" ]] || { echo "bench: PostgreSQL's server binaries are missing (apt-get install -y postgresql)" >&2; exit 2; }

# PostgreSQL refuses to run as root: as root, the cluster belongs to the postgres user.
as_owner=()
if [[ "$(id -u)" == 0 ]]; then
  as_owner=(runuser -u postgres --)
fi

case "$action" in
  start)
    if [[ ! -f "$data/PG_VERSION" ]]; then
      mkdir -p "$data"
      if (( ${#as_owner[@]} )); then chown postgres "$data"; fi
      "${as_owner[@]}" "$bin/initdb" -D "$data" -U postgres --auth=trust >/dev/null
    fi
    ram_mb=$(( $(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 ))
    buffers_mb=$(( ram_mb / 4 < 4096 ? ram_mb / 4 : 4096 ))
    "${as_owner[@]}" "$bin/pg_ctl" -D "$data" -l "$data/server.log" -w start -o "-p $port -h 127.0.0.1 \
      -k /tmp -c shared_buffers=${buffers_mb}MB -c max_wal_size=8GB -c min_wal_size=2GB \
      -c checkpoint_timeout=15min -c wal_compression=on" >/dev/null
    echo "tuned PostgreSQL on 127.0.0.1:$port (shared_buffers ${buffers_mb} MB), data in $data"
    ;;
  stop)
    "${as_owner[@]}" "$bin/pg_ctl" -D "$data" -m fast -w stop >/dev/null
    echo "stopped; remove $data to free its disk"
    ;;
  *)
    echo "usage: bench/tuned-postgres.sh start|stop [data folder]" >&2
    exit 2
    ;;
esac
