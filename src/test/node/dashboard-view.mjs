// Headless Chromium against the dashboard viewer, on a dashboard made through MCP by the official
// TypeScript SDK (charts over HTTP, the dashboard over WebSocket): every panel draws, a panel whose
// chart was deleted shows its error, the period picker redraws, auto-refresh runs, and axes show
// the dashboard's timezone. usage: node dashboard-view.mjs <port> <screenshot-dir>.
import { checks, launchChromium, mcpClients, structured } from './browser-checks.mjs';
import assert from 'node:assert/strict';
import { join } from 'node:path';

const [port, shots] = [Number(process.argv[2]), process.argv[3]];
const base = `http://127.0.0.1:${port}`;
const { check, finish } = checks();

const { http, ws } = await mcpClients(port, 'dashboard-view-test');

let board;
await check('charts are compiled and a dashboard is created through MCP', async () => {
  for (const [file, spec] of [
    ['EXAMPLE/temperature.chart.json', { table: 'EXAMPLE', tag: 'temperature', rollup: '5분 단위', timeRange: { start: 'last-12h', end: 'last' } }],
    ['GOLD/close.chart.json', { table: 'GOLD', tag: 'close', rollup: 'day' }],
    ['DRIVING/speed.chart.json', { table: 'DRIVING', tag: 'speed', rollup: '10s' }],
  ]) {
    const out = structured(await http.callTool({ name: 'compile_chart_from_spec', arguments: { spec, filename: file } }));
    assert.equal(out.saved, file);
  }
  board = structured(await ws.callTool({ name: 'create_dashboard_with_charts', arguments: {
    filename: 'plant/overview', title: 'Plant overview', refresh: '2s', timezone: 'Asia/Seoul', overwrite: true,
    charts: [
      { title: 'Temperature (saved chart)', chart_path: 'EXAMPLE/temperature.chart.json' },
      { title: 'Gold close', chart_path: 'GOLD/close.chart.json' },
      { title: 'Humidity', type: 'Line', table: 'EXAMPLE', tag: 'humidity', rollup: 'min' },
      { title: 'Pressure now', type: 'Gauge', table: 'EXAMPLE', tag: 'pressure', rollup: 'hour' },
      { title: 'Gold candles', type: 'Candlestick', table: 'GOLD', tag: 'close', rollup: 'week' },
      { title: 'Vibration axes', type: 'Pie', table: 'VIBRATION', tags: ['x', 'y', 'z'] },
      { title: 'Rpm', type: 'Bar', table: 'DRIVING', tag: 'rpm', rollup: 'min' },
      { title: 'Speed (to be deleted)', chart_path: 'DRIVING/speed.chart.json' },
      { title: 'About', type: 'Text', text: 'Sensors of the demo plant, in Seoul time.' },
    ] } }));
  assert.equal(board.path, 'plant/overview.dsh');
  assert.equal(board.panels.length, 9);
  structured(await http.callTool({ name: 'delete_file', arguments: { filename: 'DRIVING/speed.chart.json' } }));
  const preview = structured(await http.callTool({ name: 'preview_dashboard', arguments: { filename: board.path } }));
  assert.match(preview.panels.find((p) => p.title.startsWith('Speed')).error, /no file/);
});

const browser = await launchChromium();
const page = await browser.newPage({ viewport: { width: 1400, height: 1300 } });
const errors = [];
page.on('pageerror', (e) => errors.push(e.message));

await check('every panel draws from live data, and the broken one shows its error', async () => {
  await page.goto(`${base}${board.link}`);
  await page.waitForFunction(() => [...document.querySelectorAll('.panel')].length === 9
    && [...document.querySelectorAll('.panel')].every((p) => p.dataset.state !== 'loading'), null, { timeout: 60000 });
  const states = await page.$$eval('.panel', (ps) => ps.map((p) => [p.querySelector('h3').textContent, p.dataset.state, Number(p.dataset.points || 0), !!p.querySelector('canvas')]));
  for (const [title, state, points, canvas] of states) {
    if (title.startsWith('Speed')) {
      assert.equal(state, 'error', title);
    } else {
      assert.equal(state, 'drawn', title);
      if (title !== 'About') {
        assert.ok(points > 0 && canvas, `${title}: ${points} points, canvas ${canvas}`);
      }
    }
  }
  const error = await page.$eval('.panel[data-state="error"] .error', (e) => e.textContent);
  assert.match(error, /could not be drawn: no file 'DRIVING\/speed.chart.json'/);
  assert.ok(await page.$eval('.dash-list', (e) => e.textContent.includes('plant/overview.dsh')));
  assert.deepEqual(errors, []);
  await page.screenshot({ path: join(shots, 'dashboard.png'), fullPage: true });
});

await check('axes and tooltips are in the dashboard timezone', async () => {
  assert.equal(await page.$eval('#zone', (e) => e.textContent), 'times in Asia/Seoul');
  const label = await page.evaluate(() => {
    const chart = echarts.getInstanceByDom(document.querySelector('.panel[data-type="Line"] .body'));
    const formatter = chart.getOption().xAxis[0].axisLabel.formatter;
    return formatter(Date.UTC(2026, 0, 1, 0, 0));
  });
  assert.equal(label, '01-01 09:00');
});

await check('the period picker redraws every panel for the chosen period', async () => {
  const before = await page.$eval('.panel[data-type="Line"]', (p) => Number(p.dataset.points));
  assert.ok(before > 61, `the saved period holds more than an hour of minutes: ${before}`);
  await page.selectOption('#preset', 'last-1h');
  await page.click('#picker button');
  // an auto-refresh already under way may land first; the picker's own redraw follows it
  await page.waitForFunction(() => {
    const points = Number(document.querySelector('.panel[data-type="Line"]').dataset.points);
    return points > 0 && points <= 61;
  }, null, { timeout: 20000 });
  assert.ok(await page.$eval('.panel[data-type="Gauge"]', (p) => p.dataset.state === 'drawn'));
});

await check('auto-refresh redraws at the dashboard interval', async () => {
  assert.equal(await page.$eval('#refresh', (e) => e.textContent), 'refreshes every 2s');
  const n = await page.$eval('#grid', (g) => Number(g.dataset.refreshes));
  await page.waitForFunction((k) => Number(document.getElementById('grid').dataset.refreshes) >= k + 2, n, { timeout: 20000 });
});

await browser.close();
await http.close();
await ws.close();
finish();
