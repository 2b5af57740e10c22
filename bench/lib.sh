# Shell helpers shared by the benchmarks that call Sonde over Streamable HTTP with wrk.

# An MCP session on the server at $1; prints its Mcp-Session-Id.
session() {
  curl -s -D - -o /dev/null "$1" -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \
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
