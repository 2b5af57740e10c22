// The official TypeScript SDK client against a Sonde whose default connection is PostgreSQL on the
// reactive client (type: postgres), over Streamable HTTP and WebSocket.
// usage: node ts-postgres.mjs <port>   Prints "N passed, M failed".
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { WebSocketClientTransport } from '@modelcontextprotocol/sdk/client/websocket.js';
import assert from 'node:assert/strict';
import { runChecks } from './run-checks.mjs';

const port = Number(process.argv[2]);
const transports = {
  http: () => new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)),
  websocket: () => new WebSocketClientTransport(new URL(`ws://127.0.0.1:${port}/mcp/ws`)),
};

async function connect(kind) {
  const client = new Client({ name: 'sonde-ts-postgres', version: '1.0.0' });
  await client.connect(transports[kind]());
  return client;
}

const checks = {
  async 'execute_query answers with columns and rows'(client) {
    const result = await client.callTool({
      name: 'execute_query',
      arguments: { sql: 'SELECT genre_id, name FROM genre ORDER BY genre_id LIMIT 3' },
    });
    assert.equal(result.isError ?? false, false, JSON.stringify(result));
    const { columns, rows, row_count, truncated } = result.structuredContent;
    assert.deepEqual(columns.map((c) => c.name), ['genre_id', 'name']);
    assert.deepEqual(rows, [[1, 'Rock'], [2, 'Jazz'], [3, 'Metal']]);
    assert.equal(row_count, 3);
    assert.equal(truncated, false);
  },

  async 'a big result is cut to the limit and says so'(client) {
    const result = await client.callTool({
      name: 'execute_query',
      arguments: { sql: 'SELECT g FROM generate_series(1, 10000000) g', limit: 5 },
    });
    assert.equal(result.structuredContent.row_count, 5);
    assert.equal(result.structuredContent.truncated, true);
    assert.match(result.structuredContent.note, /Aggregate/);
  },

  async 'a write is refused with a reason, and the session goes on'(client) {
    const result = await client.callTool({ name: 'execute_query', arguments: { sql: 'DELETE FROM track' } });
    assert.equal(result.isError, true);
    assert.match(result.content[0].text, /DELETE changes data/);
    const count = await client.callTool({ name: 'execute_query', arguments: { sql: 'SELECT count(*) FROM track' } });
    assert.deepEqual(count.structuredContent.rows, [[3503]]);
  },

  async 'the schema tools and a table resource describe the same table'(client) {
    const described = await client.callTool({ name: 'describe_table', arguments: { table_name: 'invoice_line' } });
    assert.deepEqual(described.structuredContent.primary_key, ['invoice_line_id']);
    const { resources } = await client.listResources();
    assert.ok(resources.some((r) => r.uri.startsWith('sonde://')), JSON.stringify(resources));
    const read = await client.readResource({ uri: 'sonde://schema/pg/invoice_line' });
    assert.match(read.contents[0].text, /invoice_line_id/);
  },

  async 'explain_query shows the plan'(client) {
    const result = await client.callTool({ name: 'explain_query', arguments: { sql: 'SELECT * FROM track WHERE track_id = 7' } });
    assert.match(result.structuredContent.plan, /Index Scan|Seq Scan/);
  },
};

await runChecks(Object.keys(transports), checks, connect, (client) => client.close());
