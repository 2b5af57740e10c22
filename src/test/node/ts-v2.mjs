// The official TypeScript SDK v2 client (@modelcontextprotocol/client) speaking MCP 2026-07-28 to
// Sonde over Streamable HTTP and stdio: version negotiated, a query, chat_bi and a forecast with
// their steps as progress. SDK 2.4 has no tasks extension (it rejects a 'task' result), so a task
// goes only to a client that declares the extension; the Java tests poll tasks in both eras.
// usage: node ts-v2.mjs <port> <config> <jar>   (stdio starts `java -jar <jar> --stdio --config <config>`
// with its own data directory). Prints "N passed, M failed".
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runChecks } from './run-checks.mjs';

const [port, config, jar] = process.argv.slice(2);
const MODERN = '2026-07-28';
const TASKS = 'io.modelcontextprotocol/tasks';

const transports = {
  http: () => new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)),
  stdio: () => new StdioClientTransport({
    command: 'java',
    args: ['-jar', jar, '--stdio', '--config', config],
    env: { ...process.env, SONDE_DATA_DIR: mkdtempSync(join(tmpdir(), 'sonde-v2-stdio-')) },
    stderr: 'ignore',
  }),
};

async function connect(kind, extensions) {
  const client = new Client({ name: 'sonde-ts-v2-test', version: '1.0.0' }, {
    versionNegotiation: { mode: 'auto' },
    capabilities: extensions ? { extensions } : {},
  });
  await client.connect(transports[kind]());
  return client;
}

const checks = {
  async 'negotiates 2026-07-28 and queries'(kind) {
    const client = await connect(kind);
    try {
      assert.equal(client.getNegotiatedProtocolVersion(), MODERN);
      assert.equal(client.getServerVersion().name, 'sonde');
      const { tools } = await client.listTools();
      assert.ok(tools.some((t) => t.name === 'execute_query'), tools.map((t) => t.name).join());
      const result = await client.callTool({ name: 'execute_query', arguments: { sql: 'SELECT 6 * 7 AS answer' } });
      assert.equal(result.isError ?? false, false, JSON.stringify(result));
      assert.equal(result.structuredContent.rows[0].answer ?? result.structuredContent.rows[0][0], 42, JSON.stringify(result.structuredContent));
    } finally {
      await client.close();
    }
  },

  async 'chat_bi answers with each step as progress'(kind) {
    const client = await connect(kind);
    try {
      const progress = [];
      const result = await client.callTool(
        { name: 'chat_bi', arguments: { nlq: 'What were the top 10 products by sales in the last month?' } },
        { onprogress: (p) => progress.push(p), timeout: 120000 });
      assert.equal(result.structuredContent.success, true, JSON.stringify(result.structuredContent));
      assert.equal(result.structuredContent.bizresult.data.rowCount, 10);
      const steps = progress.map((p) => p._meta?.traceStep?.step).filter((s) => s && s !== 'started' && s !== 'done');
      assert.deepEqual(steps, ['retrieve', 'generate', 'validate', 'execute'], JSON.stringify(progress));
    } finally {
      await client.close();
    }
  },

  async 'a forecast is a plain call with progress'(kind) {
    const client = await connect(kind);
    try {
      const progress = [];
      const result = await client.callTool(
        { name: 'forecast_table', arguments: { spec: { table: 'GOLD', tag: 'close', rollup: 'day', horizon: 14 } } },
        { onprogress: (p) => progress.push(p), timeout: 120000 });
      assert.equal(result.isError ?? false, false, JSON.stringify(result).slice(0, 500));
      assert.ok(JSON.stringify(result.structuredContent).includes('GOLD'), JSON.stringify(result.structuredContent).slice(0, 300));
      assert.ok(progress.length > 0, 'forecast steps arrive as progress');
    } finally {
      await client.close();
    }
  },

  async 'SDK 2.4 cannot read a task, so Sonde gives tasks only to clients that declare the extension'(kind) {
    const client = await connect(kind, { [TASKS]: {} });
    try {
      await assert.rejects(
        client.callTool({ name: 'forecast_table', arguments: { spec: { table: 'GOLD', tag: 'close', rollup: 'day', horizon: 14 } } }),
        /Unsupported result type 'task'/);
    } finally {
      await client.close();
    }
  },
};

await runChecks(Object.keys(transports), checks);
