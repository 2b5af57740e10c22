-- wrk: POST one MCP tools/call per request on a session made once beforehand, each request with
-- its own JSON-RPC id. usage: wrk ... -s bench/mcp-call.lua URL -- SESSION TOOL ARGUMENTS_JSON
local counter = 0
local prefix = tostring(math.random(1, 1e9))

function init(args)
  session = args[1]
  tool = args[2] or "get_version"
  arguments = args[3] or "{}"
  wrk.method = "POST"
  wrk.headers["Content-Type"] = "application/json"
  wrk.headers["Accept"] = "application/json, text/event-stream"
  wrk.headers["MCP-Protocol-Version"] = "2025-11-25"
  if session and session ~= "" then
    wrk.headers["Mcp-Session-Id"] = session
  end
end

function request()
  counter = counter + 1
  local body = string.format(
    '{"jsonrpc":"2.0","id":"%s-%d","method":"tools/call","params":{"name":"%s","arguments":%s}}',
    prefix, counter, tool, arguments)
  return wrk.format(nil, nil, nil, body)
end
