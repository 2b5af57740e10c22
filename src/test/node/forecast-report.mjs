// forecast_table through the official TypeScript SDK (HTTP with progress, WebSocket with a Korean
// method alias), then its HTML report in headless Chromium: every chart draws, the model dropdown
// switches the curve, it prints, a tag named like a script tag is shown as text, never run, and a
// saved forecast chart refits and draws in the dashboard viewer. Then save_html_report's two calls
// and its reports in Chromium: every chart draws, and a script-named tag stays text.
// usage: node forecast-report.mjs <port> <screenshot-dir>
import { checks, launchChromium, mcpClients, structured } from './browser-checks.mjs';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import assert from 'node:assert/strict';
import { join } from 'node:path';

const [port, shots] = [Number(process.argv[2]), process.argv[3]];
const base = `http://127.0.0.1:${port}`;
const { check, finish } = checks();

const { http, ws } = await mcpClients(port, 'forecast-report-test');

let gold;
await check('gold close is forecast 30 days ahead over HTTP, its steps arriving as progress', async () => {
  const progress = [];
  const result = await http.request(
    { method: 'tools/call', params: { name: 'forecast_table', arguments: {
      spec: { table: 'GOLD', tag: 'close', rollup: 'day', horizon: 30 }, timezone: 'Asia/Seoul' } } },
    CallToolResultSchema,
    { onprogress: (p) => progress.push(p), timeout: 120000 });
  gold = structured(result);
  const close = gold.forecasts[0];
  assert.equal(close.values.length, 30);
  assert.equal(close.chosen, 'auto');
  assert.ok(close.members.includes('theta') && close.members.includes('damped'), close.members);
  const messages = progress.map((p) => p.message).join(' | ');
  for (const step of ['fetch', 'backtest', 'rank', 'fit', 'render']) {
    assert.ok(messages.includes(step), `${step} not in ${messages}`);
  }
  for (let i = 1; i < progress.length; i++) {
    assert.ok(progress[i].progress >= progress[i - 1].progress, `progress never goes back: ${JSON.stringify(progress)}`);
  }
});

await check('over WebSocket, the Korean alias 선형 gives the linear model alone', async () => {
  const out = structured(await ws.callTool({ name: 'forecast_table', arguments: {
    spec: { table: 'EXAMPLE', tag: 'temperature', rollup: 'hour', method: '선형', horizon: 24 } } },
  CallToolResultSchema, { timeout: 120000 }));
  assert.equal(out.forecasts[0].chosen, 'linear');
  assert.equal(out.forecasts[0].values.length, 24);
});

let evil;
await check('a tag named like a script tag is forecast like any other', async () => {
  evil = structured(await http.callTool({ name: 'forecast_table', arguments: {
    connection: 'odd', spec: { table: 'READINGS', tag: '<script>alert(1)</script>', rollup: 'day', horizon: 7 } } },
  CallToolResultSchema, { timeout: 120000 }));
  assert.equal(evil.forecasts[0].tag, '<script>alert(1)</script>');
});

const browser = await launchChromium();
const page = await browser.newPage({ viewport: { width: 1200, height: 1400 } });
const errors = [];
const dialogs = [];
page.on('pageerror', (e) => errors.push(e.message));
page.on('dialog', async (d) => { dialogs.push(d.message()); await d.dismiss(); });

await check('the report draws the forecast chart with every model in its dropdown', async () => {
  await page.goto(`${base}${gold.report.link}`);
  await page.waitForFunction(() => document.querySelector('#chart-0 canvas') && document.querySelector('#values-0 tbody tr'));
  const options = await page.$$eval('select[data-index="0"] option', (os) => os.map((o) => o.value));
  assert.equal(options[0], 'auto');
  assert.ok(options.length >= 9, options.join(','));
  assert.equal(await page.$$eval('#values-0 tbody tr', (rows) => rows.length), 30);
  assert.deepEqual(errors, []);
  await page.screenshot({ path: join(shots, 'forecast-report.png'), fullPage: true });
});

await check('choosing a model in the dropdown redraws its curve and values', async () => {
  const before = await page.$eval('#values-0 tbody tr td:nth-child(2)', (c) => c.textContent);
  await page.selectOption('select[data-index="0"]', 'naive');
  await page.waitForFunction(() => document.querySelector('#chart-0').dataset.method === 'naive');
  const caption = await page.$eval('#values-0 caption', (c) => c.textContent);
  assert.match(caption, /naive/);
  const values = await page.$$eval('#values-0 tbody tr td:nth-child(2)', (cs) => cs.map((c) => c.textContent));
  assert.equal(new Set(values).size, 1, 'the naive forecast is flat');
  assert.notEqual(values[0], before);
  await page.screenshot({ path: join(shots, 'forecast-report-naive.png'), fullPage: false });
});

await check('the report prints to PDF', async () => {
  await page.emulateMedia({ media: 'print' });
  const pdf = await page.pdf({ format: 'A4' });
  assert.ok(pdf.length > 20000, `${pdf.length} bytes`);
  await page.emulateMedia({ media: 'screen' });
});

await check('the script-named tag is shown as text and nothing runs', async () => {
  await page.goto(`${base}${evil.report.link}`);
  await page.waitForFunction(() => document.querySelector('#chart-0 canvas'));
  assert.equal(await page.$eval('section.tag h2', (h) => h.textContent), '<script>alert(1)</script>');
  assert.ok((await page.title()).includes('<script>alert(1)</script>'));
  assert.deepEqual(dialogs, []);
  assert.deepEqual(errors, []);
  await page.screenshot({ path: join(shots, 'forecast-report-escaped.png'), fullPage: false });
});

await check('a saved forecast chart refits and draws in the dashboard viewer', async () => {
  const out = structured(await http.callTool({ name: 'forecast_table', arguments: {
    spec: { table: 'GOLD', tag: 'close', rollup: 'week', horizon: 12 }, filename: 'GOLD/close-outlook.chart.json',
    timezone: 'Asia/Seoul' } },
  CallToolResultSchema, { timeout: 120000 }));
  await page.goto(`${base}${out.chart.link}`);
  await page.waitForFunction(() => document.querySelector('.panel')?.dataset.state === 'drawn', null, { timeout: 60000 });
  assert.ok(await page.$('.panel canvas'));
  assert.ok(Number(await page.$eval('.panel', (p) => p.dataset.points)) > 12);
  assert.equal(await page.$eval('#zone', (e) => e.textContent), 'times in Asia/Seoul', 'a chart opens in its saved zone');
  assert.deepEqual(errors, []);
  await page.waitForTimeout(1500); // the viewer animates lines in
  await page.screenshot({ path: join(shots, 'forecast-chart.png'), fullPage: false });
});

await check('save_html_report: a summary first, then a vibration report whose every chart draws', async () => {
  const args = { table: 'VIBRATION', tag_name: 'x,y,z' };
  const first = structured(await http.callTool({ name: 'save_html_report', arguments: args }, CallToolResultSchema, { timeout: 120000 }));
  assert.equal(first.stage, 'summary');
  assert.equal(first.template.id, 'R-2-vibration');
  assert.ok(Math.abs(first.summary.x.spectrum_peaks[0].hz - 50) < 0.5);
  const saved = structured(await ws.callTool({ name: 'save_html_report', arguments: {
    ...args, analysis: '## Findings\n\nAxis x is dominated by **50 Hz**; 87 Hz is a second tone.',
    recommendations: '- check the coupling' } }, CallToolResultSchema, { timeout: 120000 }));
  assert.equal(saved.stage, 'saved');
  await page.goto(`${base}${saved.report.link}`);
  await page.waitForFunction(() => [...document.querySelectorAll('.chart')].every((c) => c.dataset.drawn === 'true'));
  const charts = await page.$$eval('.chart', (cs) => cs.map((c) => !!c.querySelector('canvas')));
  assert.ok(charts.length >= 3 && charts.every(Boolean), JSON.stringify(charts));
  assert.equal(await page.$eval('.analysis strong', (e) => e.textContent), '50 Hz');
  assert.deepEqual(errors, []);
  await page.screenshot({ path: join(shots, 'vibration-report.png'), fullPage: true });
});

await check('a finance report on gold draws its price, candlestick, returns and drawdown charts', async () => {
  const saved = structured(await http.callTool({ name: 'save_html_report', arguments: {
    table: 'GOLD', tag_name: 'close', rollup_unit: 'week', timezone: 'Asia/Seoul',
    analysis: 'Gold rose over the year with **moderate** volatility.' } }, CallToolResultSchema, { timeout: 120000 }));
  assert.equal(saved.template.id, 'R-1-finance');
  await page.goto(`${base}${saved.report.link}`);
  await page.waitForFunction(() => [...document.querySelectorAll('.chart')].every((c) => c.dataset.drawn === 'true'));
  assert.equal(await page.$$eval('.chart canvas', (cs) => cs.length), 4);
  assert.deepEqual(errors, []);
  await page.screenshot({ path: join(shots, 'finance-report.png'), fullPage: true });
});

await check('a report on the script-named tag shows it as text and runs nothing', async () => {
  const args = { connection: 'odd', table: 'READINGS', tag_name: '<script>alert(1)</script>', rollup_unit: 'day',
    analysis: 'A tag named <script>alert(3)</script> is only text.' };
  const saved = structured(await http.callTool({ name: 'save_html_report', arguments: args }, CallToolResultSchema, { timeout: 120000 }));
  await page.goto(`${base}${saved.report.link}`);
  await page.waitForFunction(() => document.querySelector('.chart canvas'));
  assert.ok((await page.$eval('header .subtitle', (e) => e.textContent)).includes('<script>alert(1)</script>'));
  assert.ok((await page.$eval('.analysis', (e) => e.textContent)).includes('<script>alert(3)</script>'));
  assert.deepEqual(dialogs, []);
  assert.deepEqual(errors, []);
});

await browser.close();
await http.close();
await ws.close();
finish();
