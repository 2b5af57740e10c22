-- wrk: POST one MCP tools/call per request on a session made once beforehand, each request with
-- its own JSON-RPC id. usage: wrk ... -s bench/mcp-call.lua URL -- SESSION TOOL ARGUMENTS_JSON
-- SESSION "modern" speaks 2026-07-28 instead: no session, the version, capabilities and client in
-- each request's _meta, and the Mcp-Method and Mcp-Name headers.
-- Every __N__ in ARGUMENTS_JSON becomes a number unique to the request (a new SQL text per call).
-- A fourth argument "padded" makes a session request carry the modern request's bytes (its _meta
-- under a key only the modern era reads, its two extra headers): the control that separates the
-- cost of the bytes the 2026-07-28 revision puts on the wire from the cost of serving it.
-- With BENCH_BEARER set in the environment, every request carries Authorization: Bearer <it>.
local counter = 0
local threads = 0

function setup(thread)
  threads = threads + 1
  -- the thread and the start second: ids stay unique across threads and across runs on one session
  thread:set("prefix", tostring(threads) .. tostring(os.time() % 100000))
end

function init(args)
  session = args[1]
  tool = args[2] or "get_version"
  arguments = args[3] or "{}"
  wrk.method = "POST"
  wrk.headers["Content-Type"] = "application/json"
  wrk.headers["Accept"] = "application/json, text/event-stream"
  modern = session == "modern"
  padded = args[4] == "padded"
  -- "protocolVersio_" is as long as the modern key and means nothing to either era
  local version_key = modern and "protocolVersion" or "protocolVersio_"
  if modern or padded then
    wrk.headers["Mcp-Method"] = "tools/call"
    wrk.headers["Mcp-Name"] = tool
    meta = ',"_meta":{"io.modelcontextprotocol/' .. version_key .. '":"2026-07-28",'
      .. '"io.modelcontextprotocol/clientCapabilities":{},'
      .. '"io.modelcontextprotocol/clientInfo":{"name":"bench","version":"1"}}'
  else
    meta = ""
  end
  wrk.headers["MCP-Protocol-Version"] = modern and "2026-07-28" or "2025-11-25"
  -- BENCH_BEARER signs every request in (auth.mode: tokens)
  local bearer = os.getenv("BENCH_BEARER")
  if bearer and bearer ~= "" then
    wrk.headers["Authorization"] = "Bearer " .. bearer
  end
  if session and session ~= "" and not modern then
    wrk.headers["Mcp-Session-Id"] = session
  end
end

function request()
  counter = counter + 1
  local body = string.format(
    '{"jsonrpc":"2.0","id":"%s-%d","method":"tools/call","params":{"name":"%s","arguments":%s%s}}',
    prefix, counter, tool, (arguments:gsub("__N__", prefix .. "0" .. counter)), meta)
  return wrk.format(nil, nil, nil, body)
end
