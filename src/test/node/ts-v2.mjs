// The official TypeScript SDK v2 client (@modelcontextprotocol/client) speaking MCP 2026-07-28 to
// Sonde over Streamable HTTP and stdio: version negotiated, a query, chat_bi and a forecast with
// their steps as progress, and a forecast run as a task (SDK 2.4's Client has no tasks extension, so
// that check speaks it over the SDK's transport); the v1 SDK beside it on the same transports.
// usage: node ts-v2.mjs <port> <config> <jar>   (stdio starts `java -jar <jar> --stdio --config <config>`
// with its own data directory). Prints "N passed, M failed".
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { queryWhenReady, runChecks } from './run-checks.mjs';

const [port, config, jar] = process.argv.slice(2);
const MODERN = '2026-07-28';
const TASKS = 'io.modelcontextprotocol/tasks';

const server = () => ({
  command: 'java',
  args: ['-jar', jar, '--stdio', '--config', config],
  env: { ...process.env, SONDE_DATA_DIR: mkdtempSync(join(tmpdir(), 'sonde-v2-stdio-')) },
  stderr: 'ignore',
});
const url = new URL(`http://127.0.0.1:${port}/mcp`);
const transports = {
  http: () => new StreamableHTTPClientTransport(url),
  stdio: () => new StdioClientTransport(server()),
};
const v1Transports = { http: () => new HttpV1(url), stdio: () => new StdioV1(server()) };

async function connect(kind, extensions) {
  const client = new Client({ name: 'sonde-ts-v2-test', version: '1.0.0' }, {
    versionNegotiation: { mode: 'auto' },
    capabilities: extensions ? { extensions } : {},
  });
  await client.connect(transports[kind]());
  return client;
}

const FORECAST = { name: 'forecast_table', arguments: { spec: { table: 'GOLD', tag: 'close', rollup: 'day', horizon: 14 } } };

/** One tools/call from a client without extensions, with the progress it reported. */
async function callWithProgress(kind, call) {
  const client = await connect(kind);
  try {
    const progress = [];
    const result = await client.callTool(call, { onprogress: (p) => progress.push(p), timeout: 120000 });
    return { result, progress };
  } finally {
    await client.close();
  }
}

const checks = {
  async 'negotiates 2026-07-28 and queries'(kind) {
    const client = await connect(kind);
    try {
      assert.equal(client.getNegotiatedProtocolVersion(), MODERN);
      assert.equal(client.getServerVersion().name, 'sonde');
      const { tools } = await client.listTools();
      assert.ok(tools.some((t) => t.name === 'execute_query'), tools.map((t) => t.name).join());
      // connection is mirrored into Mcp-Param-Connection: over HTTP Sonde refuses a call without it
      const query = tools.find((t) => t.name === 'execute_query');
      assert.equal(query.inputSchema.properties.connection['x-mcp-header'], 'Connection');
      const result = await queryWhenReady(client, { sql: 'SELECT 6 * 7 AS answer', connection: 'shop' });
      assert.equal(result.isError ?? false, false, JSON.stringify(result));
      assert.equal(result.structuredContent.rows[0][0], 42, JSON.stringify(result.structuredContent));
    } finally {
      await client.close();
    }
  },

  async 'chat_bi answers with each step as progress'(kind) {
    const { result, progress } = await callWithProgress(kind,
      { name: 'chat_bi', arguments: { nlq: 'What were the top 10 products by sales in the last month?' } });
    assert.equal(result.structuredContent.success, true, JSON.stringify(result.structuredContent));
    assert.equal(result.structuredContent.bizresult.data.rowCount, 10);
    const steps = progress.map((p) => p._meta?.traceStep?.step).filter((s) => s && s !== 'started' && s !== 'done');
    assert.deepEqual(steps, ['retrieve', 'generate', 'validate', 'execute'], JSON.stringify(progress));
  },

  async 'a forecast is a plain call with progress'(kind) {
    const { result, progress } = await callWithProgress(kind, FORECAST);
    assert.equal(result.isError ?? false, false, JSON.stringify(result).slice(0, 500));
    assert.ok(JSON.stringify(result.structuredContent).includes('GOLD'), JSON.stringify(result.structuredContent).slice(0, 300));
    assert.ok(progress.length > 0, 'forecast steps arrive as progress');
  },

  async 'a forecast runs as a task, polled over the SDK transport'(kind) {
    // SDK 2.4's Client rejects a 'task' result; its transport speaks the extension's wire format
    const client = await connect(kind, { [TASKS]: {} });
    try {
      await assert.rejects(client.callTool(FORECAST), /Unsupported result type 'task'/);
    } finally {
      await client.close();
    }
    const transport = transports[kind]();
    const answers = new Map();
    transport.onmessage = (m) => answers.get(m.id)?.(m);
    await transport.start();
    let next = 1;
    const request = (method, params) => new Promise((resolve) => {
      const id = next++;
      answers.set(id, resolve);
      transport.send({ jsonrpc: '2.0', id, method, params: { ...params, _meta: {
        'io.modelcontextprotocol/protocolVersion': MODERN,
        'io.modelcontextprotocol/clientCapabilities': { extensions: { [TASKS]: {} } },
        'io.modelcontextprotocol/clientInfo': { name: 'sonde-ts-v2-test', version: '1.0.0' },
      } } });
    });
    try {
      const created = (await request('tools/call', FORECAST)).result;
      assert.equal(created.resultType, 'task', JSON.stringify(created));
      let task = created;
      const end = Date.now() + 120000;
      while (task.status === 'working' && Date.now() < end) {
        await new Promise((r) => setTimeout(r, 100));
        task = (await request('tasks/get', { taskId: created.taskId })).result;
      }
      assert.equal(task.status, 'completed', JSON.stringify(task));
      assert.equal(task.result.isError ?? false, false, JSON.stringify(task.result).slice(0, 500));
      assert.ok(JSON.stringify(task.result.structuredContent).includes('GOLD'));
    } finally {
      await transport.close();
    }
  },

  async 'the v1 SDK still speaks 2025-11-25 on the same transport'(kind) {
    const client = new ClientV1({ name: 'sonde-ts-v1-test', version: '1.0.0' });
    await client.connect(v1Transports[kind]());
    try {
      const progress = [];
      const result = await client.callTool(
        { name: 'chat_bi', arguments: { nlq: 'What were the top 10 products by sales in the last month?' } },
        undefined, { onprogress: (p) => progress.push(p), timeout: 120000 });
      assert.equal(result.structuredContent.success, true, JSON.stringify(result.structuredContent));
      assert.ok(progress.some((p) => p._meta?.traceStep?.step === 'execute'), JSON.stringify(progress));
    } finally {
      await client.close();
    }
  },
};

await runChecks(Object.keys(transports), checks);
