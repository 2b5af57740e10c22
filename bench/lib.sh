# Shell helpers shared by the benchmarks that call Sonde over Streamable HTTP with wrk.

# An MCP session on the server at $1 (signed in with $BENCH_BEARER when set); prints its Mcp-Session-Id.
session() {
  curl -s -D - -o /dev/null "$1" -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \
    ${BENCH_BEARER:+-H "Authorization: Bearer $BENCH_BEARER"} \
    -d '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}' \
    | tr -d '\r' | awk -F': ' 'tolower($1)=="mcp-session-id"{print $2}'
}

# Reads wrk --latency output; prints "| connections | label | calls/s | p50 ms | p99 ms | non-2xx |".
wrk_summary() {
  awk -v c="$1" -v label="$2" '
    function ms(v) { if (v ~ /us$/) return v / 1000; if (v ~ /ms$/) return v + 0; if (v ~ /s$/) return v * 1000; return v }
    /Requests\/sec/ { rps = $2 } $1 == "50%" { p50 = ms($2) } $1 == "99%" { p99 = ms($2) } /Non-2xx/ { err += $NF }
    END { printf "| %d | %s | %.0f | %.3f | %.3f | %d |\n", c, label, rps, p50, p99, err }'
}

# A throwaway PostgreSQL 15 (Debian's) in $1 on port $2, with Chinook loaded into database chinook;
# postgres_stop $1 ends it. Installs postgresql-15 and wrk when run as root and they are missing.
pgbin=/usr/lib/postgresql/15/bin
postgres_start() {
  local dir=$1 port=$2
  if [ ! -x "$pgbin/pgbench" ] || ! command -v wrk >/dev/null; then
    [ "$(id -u)" -eq 0 ] || { echo "bench: needs postgresql-15 and wrk (sudo apt-get install -y postgresql-15 wrk)" >&2; exit 1; }
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql-15 wrk >/dev/null
  fi
  chown postgres "$dir"
  as_postgres "$pgbin/initdb" -D "$dir/data" -A trust -U postgres >/dev/null
  as_postgres "$pgbin/pg_ctl" -D "$dir/data" -l "$dir/pg.log" -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c shared_buffers=256MB" start >/dev/null
  pg_port=$port
  psql -d postgres -c "CREATE DATABASE chinook"
  sed '1,/\\c chinook;/d' ../shared/datasets/chinook/Chinook_PostgreSql.sql | psql -d chinook >/dev/null
}
postgres_stop() { as_postgres "$pgbin/pg_ctl" -D "$1/data" stop -m fast >/dev/null 2>&1 || true; }
as_postgres() { if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
psql() { "$pgbin/psql" -h 127.0.0.1 -p "$pg_port" -U postgres -v ON_ERROR_STOP=1 -q "$@"; }
