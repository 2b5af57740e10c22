// Headless Chromium against the job view: a multi-step job's steps arrive live, survive a forced
// reconnect without loss or duplicates, and a running job is cancelled from its button.
// usage: node job-view.mjs <port> <screenshot-dir>. Prints "N passed, M failed".
import { checks, launchChromium } from './browser-checks.mjs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import assert from 'node:assert/strict';
import { join } from 'node:path';

const [port, shots] = [Number(process.argv[2]), process.argv[3]];
const base = `http://127.0.0.1:${port}`;
const browser = await launchChromium();
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

const { check, finish } = checks();

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
finish();
