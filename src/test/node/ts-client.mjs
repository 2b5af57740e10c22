// The official TypeScript SDK client against a running Sonde, over Streamable HTTP and WebSocket.
// usage: node ts-client.mjs <port>   (Node 22: WebSocket is global). Prints "N passed, M failed".
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { WebSocketClientTransport } from '@modelcontextprotocol/sdk/client/websocket.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import assert from 'node:assert/strict';
import { runChecks } from './run-checks.mjs';

const port = Number(process.argv[2]);
const base = `http://127.0.0.1:${port}`;
const transports = {
  http: () => new StreamableHTTPClientTransport(new URL(`${base}/mcp`)),
  websocket: () => new WebSocketClientTransport(new URL(`ws://127.0.0.1:${port}/mcp/ws`)),
};

async function connect(kind) {
  const client = new Client({ name: 'sonde-ts-test', version: '1.0.0' });
  const logs = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => logs.push(n.params));
  await client.connect(transports[kind]());
  return { client, logs };
}

async function job(id) {
  return (await fetch(`${base}/api/jobs/${id}`)).json();
}

async function until(what, check, ms = 10000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const checks = {
  async 'initialize, list tools, call get_version'(kind) {
    const { client } = await connect(kind);
    assert.equal(client.getServerVersion().name, 'sonde');
    assert.ok(client.getInstructions().includes('get_version'));
    // every page: with the conformance fixtures the list is longer than one page
    const tools = [];
    let cursor;
    do {
      const page = await client.listTools(cursor ? { cursor } : undefined);
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    const names = tools.map((t) => t.name);
    for (const n of ['get_version', 'health_check', 'debug_mcp_status', 'test_slow_job']) assert.ok(names.includes(n), n);
    const result = await client.callTool({ name: 'get_version', arguments: {} });
    assert.equal(result.structuredContent.vertx, '5.0.7');
    await client.close();
  },

  async 'a job sends progress and log notifications'(kind) {
    const { client, logs } = await connect(kind);
    await client.setLoggingLevel('info');
    const progress = [];
    const result = await client.callTool({ name: 'test_slow_job', arguments: { steps: 4, stepMillis: 20 } }, undefined,
      { onprogress: (p) => progress.push(p) });
    assert.equal(result.structuredContent.steps, 4);
    assert.ok(progress.length >= 4, `progress: ${progress.length}`);
    for (let i = 1; i < progress.length; i++) assert.ok(progress[i].progress >= progress[i - 1].progress);
    assert.ok(progress.some((p) => p.total === 4 && p._meta?.traceStep?.step === 'step-4'));
    assert.equal(logs.filter((l) => l.logger === 'test_slow_job').length, 4);
    assert.ok(logs.every((l) => l.level !== 'debug'));
    await client.close();
  },

  async 'aborting a call cancels its job'(kind) {
    const { client } = await connect(kind);
    const abort = new AbortController();
    let jobId;
    const call = client.callTool({ name: 'test_slow_job', arguments: { steps: 200, stepMillis: 50 } }, undefined, {
      signal: abort.signal,
      onprogress: (p) => { jobId ??= p._meta?.traceStep?.jobId; },
    });
    await until('first progress', () => jobId !== undefined);
    abort.abort('user changed their mind');
    await assert.rejects(call);
    await until('job cancelled', async () => (await job(jobId)).status === 'cancelled');
    assert.ok((await job(jobId)).steps < 100);
    assert.deepEqual(await client.ping(), {});
    await client.close();
  },

  async 'a task runs to completion and is polled'(kind) {
    const { client } = await connect(kind);
    const seen = [];
    let result;
    for await (const message of client.experimental.tasks.callToolStream(
      { name: 'test_slow_job', arguments: { steps: 3, stepMillis: 100 } }, undefined, { task: { ttl: 60000 } })) {
      seen.push(message.type);
      if (message.type === 'taskCreated') assert.equal(message.task.status, 'working');
      if (message.type === 'result') result = message.result;
      if (message.type === 'error') throw message.error;
    }
    assert.equal(seen[0], 'taskCreated');
    assert.equal(seen.at(-1), 'result');
    assert.equal(result.structuredContent.steps, 3);
    const { tasks } = await client.experimental.tasks.listTasks();
    assert.ok(tasks.some((t) => t.status === 'completed'));
    await client.close();
  },

  async 'a task can be cancelled'(kind) {
    const { client } = await connect(kind);
    const created = await client.request({ method: 'tools/call', params: { name: 'test_slow_job', arguments: { steps: 200, stepMillis: 50 }, task: {} } },
      (await import('@modelcontextprotocol/sdk/types.js')).CreateTaskResultSchema);
    const taskId = created.task.taskId;
    const cancelled = await client.experimental.tasks.cancelTask(taskId);
    assert.equal(cancelled.status, 'cancelled');
    assert.equal((await client.experimental.tasks.getTask(taskId)).status, 'cancelled');
    await until('job cancelled', async () => (await job(taskId)).status === 'cancelled');
    await client.close();
  },
};

await runChecks(Object.keys(transports), checks);
