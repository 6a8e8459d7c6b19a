#!/usr/bin/env bash
# Two nodes of the reference service on one PostgreSQL database, locally (docs/guides/running-the-service.md;
# test/pg/two-nodes.test.ts runs this script). Starts a PostgreSQL server of its own in a folder
# (Debian's postgresql package; as the postgres user when run as root, on a Unix socket in that
# folder), creates the database, and starts two `evgen serve` processes on it, each on its port.
# Put any HTTP load balancer in front of the two ports. Ctrl-C stops the nodes and the server.
#   PORT_A, PORT_B  the nodes' ports (default 8081, 8082; 0: any free port)
#   PGDIR           the server's folder (default: a new temporary one, removed at the end)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${EVGEN_PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)}
[ -x "$bin/initdb" ] || { echo "PostgreSQL server binaries not found: apt-get install postgresql" >&2; exit 1; }
dir=${PGDIR:-$(mktemp -d /tmp/evgen-two-nodes.XXXXXX)}
as_server() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
[ "$(id -u)" = 0 ] && chown postgres: "$dir"

nodes=()
stop() {
  trap - EXIT INT TERM
  for pid in "${nodes[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  wait "${nodes[@]}" 2>/dev/null || true
  as_server "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
  [ -n "${PGDIR:-}" ] || rm -rf "$dir"
}
trap stop EXIT INT TERM

as_server "$bin/initdb" -D "$dir/data" -U evgen -A trust -E UTF8 >/dev/null
as_server "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -o "-k $dir -c listen_addresses=''" -w start >/dev/null
"$bin/createdb" -h "$dir" -U evgen events
export DATABASE_URL="postgres://evgen@localhost/events?host=$dir"
echo "database: $DATABASE_URL" >&2

# Started together: the first to take the schema lock migrates and seeds (and prints the demo
# key); the other waits for it and serves the same data.
node src/cli/bin.js serve --port "${PORT_A:-8081}" & nodes+=($!)
node src/cli/bin.js serve --port "${PORT_B:-8082}" & nodes+=($!)
wait -n "${nodes[@]}"
