// chat_bi through the official TypeScript SDK over Streamable HTTP and WebSocket: the reference
// system's questions answered, each step arriving in order as progress with the client's token
// and the step under _meta.traceStep, and an empty question answered as a business failure.
// usage: node ts-chatbi.mjs <port>   Prints "N passed, M failed".
import { checks, mcpClients, structured } from './browser-checks.mjs';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import assert from 'node:assert/strict';

const port = Number(process.argv[2]);
const { check, finish } = checks();
const { http, ws } = await mcpClients(port, 'chatbi-test');

async function ask(client, nlq) {
  const progress = [];
  const result = await client.request(
    { method: 'tools/call', params: { name: 'chat_bi', arguments: { nlq } } },
    CallToolResultSchema,
    { onprogress: (p) => progress.push(p), timeout: 120000 });
  return { envelope: structured(result), progress, text: result.content[0].text };
}

function assertSteps(progress) {
  const steps = progress.map((p) => p._meta?.traceStep?.step).filter((s) => s && s !== 'started' && s !== 'done');
  assert.deepEqual(steps, ['retrieve', 'generate', 'validate', 'execute'], JSON.stringify(progress));
  for (let i = 1; i < progress.length; i++) {
    assert.ok(progress[i].progress >= progress[i - 1].progress, `progress never goes back: ${JSON.stringify(progress)}`);
  }
  assert.ok(progress.every((p) => p.message), 'every step has a message');
}

await check('over HTTP the top 10 products by sales in the past month, each step as progress', async () => {
  const { envelope, progress, text } = await ask(http, '最近一个月销售额最高的前10个产品是什么？');
  assert.equal(envelope.success, true, JSON.stringify(envelope));
  assert.equal(envelope.bizresult.data.rowCount, 10);
  assert.match(envelope.bizresult.reqId, /^\d{14}-[0-9a-f]{32}$/);
  assert.match(envelope.bizresult.sql, /LIMIT 10$/);
  assert.match(text, /^10 rows:/);
  assertSteps(progress);
});

await check('over WebSocket the same question in English, its steps in order', async () => {
  const { envelope, progress } = await ask(ws, 'What were the top 10 products by sales in the last month?');
  assert.equal(envelope.success, true, JSON.stringify(envelope));
  assert.equal(envelope.bizresult.data.rowCount, 10);
  assertSteps(progress);
});

await check('over WebSocket, in Korean, the stores with more stock than average and their city', async () => {
  const { envelope } = await ask(ws, '재고가 평균보다 많은 매장과 도시는?');
  assert.equal(envelope.success, true, JSON.stringify(envelope));
  const rows = envelope.bizresult.data.rows;
  assert.ok(rows.length > 0 && rows.length < 24, JSON.stringify(rows));
  assert.ok('stores_city' in rows[0] && 'inventory' in rows[0], JSON.stringify(rows[0]));
});

await check('an empty question is a business failure, not a protocol error', async () => {
  const result = await http.callTool({ name: 'chat_bi', arguments: { nlq: '' } }, CallToolResultSchema);
  assert.equal(result.isError ?? false, false);
  assert.equal(result.structuredContent.success, false);
  assert.equal(result.structuredContent.errormsg[0], '自然语言问句（nlq）不能为空');
});

await http.close();
await ws.close();
finish();
