// Headless Chromium against the job view: a multi-step job's steps arrive live, survive a forced
// reconnect without loss or duplicates, and a running job is cancelled from its button.
// usage: node job-view.mjs <port> <screenshot-dir>. Prints "N passed, M failed".
import { chromium } from 'playwright-core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import assert from 'node:assert/strict';
import { join } from 'node:path';

const [port, shots] = [Number(process.argv[2]), process.argv[3]];
const base = `http://127.0.0.1:${port}`;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  // Playwright gives every launch a fresh temporary profile of its own
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--disable-quic'],
});
const page = await browser.newPage({ viewport: { width: 1100, height: 800 } });
const errors = [];
page.on('pageerror', (e) => errors.push(e.message));

const client = new Client({ name: 'job-view-test', version: '1.0.0' });
await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));

function startJob(args) {
  let jobId;
  const done = client.callTool({ name: 'test_slow_job', arguments: args }, undefined,
    { onprogress: (p) => { jobId ??= p._meta?.traceStep?.jobId; }, timeout: 120000 }).catch(() => null);
  return { done, id: async () => { while (!jobId) await new Promise((r) => setTimeout(r, 20)); return jobId; } };
}

let passed = 0;
let failed = 0;
async function check(name, body) {
  try {
    await body();
    passed++;
    console.log(`ok   ${name}`);
  } catch (e) {
    failed++;
    console.log(`FAIL ${name}: ${e?.stack ?? e}`);
  }
}

await page.goto(base + '/');
await page.waitForSelector('#connection[data-state="live"]');

await check('steps arrive live and survive a forced reconnect', async () => {
  const steps = 10;
  const job = startJob({ steps, stepMillis: 250 });
  const id = await job.id();
  const row = `li.job[data-job-id="${id}"]`;
  await page.waitForSelector(`${row} tbody tr[data-seq="3"]`);
  await page.evaluate(() => window.sondeJobs.drop());
  await page.waitForTimeout(800);
  const before = await page.evaluate((jobId) => window.sondeJobs.steps(jobId), id);
  await page.evaluate(() => window.sondeJobs.reconnect());
  await page.waitForSelector(`${row}[data-status="succeeded"]`, { timeout: 15000 });
  const seqs = await page.evaluate((jobId) => window.sondeJobs.steps(jobId), id);
  const rows = await page.$$eval(`${row} tbody tr`, (trs) => trs.map((tr) => Number(tr.dataset.seq)));
  const expected = Array.from({ length: steps + 2 }, (_, i) => i + 1);
  assert.deepEqual(seqs, expected, 'every step once, in order');
  assert.deepEqual(rows, expected, 'the timeline shows each step once');
  assert.ok(before.length < expected.length, 'steps were missed while disconnected and replayed after');
  assert.equal(await page.$eval(`${row} .fill`, (el) => el.style.width), '100%');
  await job.done;
  await page.screenshot({ path: join(shots, 'job-view-succeeded.png'), fullPage: true });
});

await check('the cancel button stops a running job', async () => {
  const job = startJob({ steps: 200, stepMillis: 100 });
  const id = await job.id();
  const row = `li.job[data-job-id="${id}"]`;
  await page.waitForSelector(`${row} tbody tr[data-seq="3"]`);
  await page.click(`${row} button.cancel`);
  await page.waitForSelector(`${row}[data-status="cancelled"]`, { timeout: 10000 });
  assert.equal(await page.$eval(`${row} .cancel`, (b) => b.hidden), true);
  const detail = await (await fetch(`${base}/api/jobs/${id}`)).json();
  assert.equal(detail.status, 'cancelled');
  assert.ok(detail.steps < 50);
  await job.done;
  await page.screenshot({ path: join(shots, 'job-view.png'), fullPage: true });
});

await check('a reload shows the same jobs and steps', async () => {
  await page.reload();
  await page.waitForSelector('#connection[data-state="live"]');
  const statuses = await page.$$eval('li.job', (lis) => lis.map((li) => li.dataset.status));
  assert.ok(statuses.includes('succeeded') && statuses.includes('cancelled'), statuses.join());
  assert.deepEqual(errors, [], 'no script errors on the page');
});

await client.close();
await browser.close();
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
