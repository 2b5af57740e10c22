// The official TypeScript SDKs signing in to Sonde with bearer tokens (API tokens, or OAuth access
// tokens in auth.mode: oauth): v1 over Streamable HTTP and WebSocket, v2 over 2026-07-28 HTTP. A
// data-query token lists its seven tools and is refused create_folder by name; a general token
// lists create_folder but no delete tool; no token, or a wrong one, never connects.
// usage: node ts-tokens.mjs <port> <data-query token> <general token>. Prints "N passed, M failed".
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { WebSocketClientTransport } from '@modelcontextprotocol/sdk/client/websocket.js';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import assert from 'node:assert/strict';
import { queryWhenReady, runChecks } from './run-checks.mjs';

const [port, dataQuery, general] = process.argv.slice(2);
const url = new URL(`http://127.0.0.1:${port}/mcp`);
const DATA_QUERY = ['compile_chart_from_spec', 'compile_tql_from_spec', 'describe_table', 'execute_query',
  'forecast_table', 'list_table_tags', 'list_tables'];

// The SDK's WebSocket transport offers the mcp subprotocol and no headers; in Node the global
// WebSocket (undici) takes handshake headers, so a client signs in by giving it one
const NodeWebSocket = globalThis.WebSocket;
function webSocketSignedInAs(token) {
  globalThis.WebSocket = class extends NodeWebSocket {
    constructor(address, protocols) {
      super(address, { protocols, headers: { Authorization: `Bearer ${token}` } });
    }
  };
}

const transports = {
  http: (token) => new StreamableHTTPClientTransport(url, {
    requestInit: { headers: token ? { Authorization: `Bearer ${token}` } : {} },
  }),
  websocket: (token) => {
    if (token) {
      webSocketSignedInAs(token);
    } else {
      globalThis.WebSocket = NodeWebSocket;
    }
    return new WebSocketClientTransport(new URL(`ws://127.0.0.1:${port}/mcp/ws`));
  },
  'http-2026-07-28': (token) => new HttpV2(url, {
    requestInit: { headers: token ? { Authorization: `Bearer ${token}` } : {} },
  }),
};

async function connect(kind, token) {
  const client = kind === 'http-2026-07-28'
    ? new ClientV2({ name: 'sonde-token-test', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } })
    : new Client({ name: 'sonde-token-test', version: '1.0.0' });
  await client.connect(transports[kind](token));
  return client;
}

const names = async (client) => (await client.listTools()).tools.map((t) => t.name).sort();

await runChecks(Object.keys(transports), {
  'a data-query token lists exactly its tools and runs a query': async (kind) => {
    const client = await connect(kind, dataQuery);
    try {
      assert.deepEqual(await names(client), DATA_QUERY);
      const result = await queryWhenReady(client, { sql: 'SELECT 42 AS answer' });
      assert.ok(!result.isError, JSON.stringify(result));
      assert.equal(result.structuredContent.rows[0].answer ?? result.structuredContent.rows[0][0], 42);
    } finally {
      await client.close();
    }
  },
  'a data-query token is refused create_folder by name': async (kind) => {
    const client = await connect(kind, dataQuery);
    try {
      await assert.rejects(
        client.callTool({ name: 'create_folder', arguments: { folder_name: 'by-token' } }),
        /tool create_folder is not in your toolsets \(data-query\)/);
    } finally {
      await client.close();
    }
  },
  'a general token has create_folder and no delete tool': async (kind) => {
    const client = await connect(kind, general);
    try {
      const listed = await names(client);
      assert.ok(listed.includes('create_folder'), listed.join());
      for (const tool of ['delete_file', 'delete_dashboard', 'remove_chart_from_dashboard']) {
        assert.ok(!listed.includes(tool), tool);
      }
    } finally {
      await client.close();
    }
  },
  'no token and a wrong token never connect': async (kind) => {
    for (const token of [undefined, 'sonde_0123456789abcdef_' + 'A'.repeat(43)]) {
      let client;
      try {
        client = await connect(kind, token);
        await client.listTools();
        assert.fail(`connected with ${token ?? 'no token'}`);
      } catch (e) {
        assert.ok(!String(e).includes('connected with'), String(e));
        // HTTP says 401; a refused WebSocket handshake reaches the SDK as a bare error event
        if (kind !== 'websocket') assert.match(String(e), /401|Unauthorized|authentication required|API token/, String(e));
      } finally {
        await client?.close().catch(() => {});
      }
    }
  },
});
