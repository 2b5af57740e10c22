-- wrk: POST one MCP tools/call per request on a session made once beforehand, each request with
-- its own JSON-RPC id. usage: wrk ... -s bench/mcp-call.lua URL -- SESSION TOOL ARGUMENTS_JSON
-- SESSION "modern" speaks 2026-07-28 instead: no session, the version, capabilities and client in
-- each request's _meta, and the Mcp-Method and Mcp-Name headers.
-- Every __N__ in ARGUMENTS_JSON becomes a number unique to the request (a new SQL text per call).
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
  if modern then
    wrk.headers["MCP-Protocol-Version"] = "2026-07-28"
    wrk.headers["Mcp-Method"] = "tools/call"
    wrk.headers["Mcp-Name"] = tool
    meta = ',"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",'
      .. '"io.modelcontextprotocol/clientCapabilities":{},'
      .. '"io.modelcontextprotocol/clientInfo":{"name":"bench","version":"1"}}'
  else
    wrk.headers["MCP-Protocol-Version"] = "2025-11-25"
    meta = ""
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
