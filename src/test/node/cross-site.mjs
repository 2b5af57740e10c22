// Headless Chromium on a page of another site attacking Sonde (issue 16): it may not frame the job
// view, every answer it can see from Sonde (the frame's, the API fetch's) is a 403, its WebSocket
// never opens; a plain link to Sonde still works. The image's answer is hidden by the browser;
// ServerEdgesTest sends the same request with the browser's labels and checks the 403.
// usage: node cross-site.mjs <port> <screenshot-dir>. Prints "N passed, M failed".
import { checks, launchChromium } from './browser-checks.mjs';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { join } from 'node:path';

const [port, shots] = [Number(process.argv[2]), process.argv[3]];
const sonde = `http://127.0.0.1:${port}`;
const attack = `<!doctype html><meta charset="utf-8"><title>elsewhere</title>
<h1>A page on another site</h1>
<a id="link" href="${sonde}/">open Sonde</a>
<iframe id="framed" src="${sonde}/" width="600" height="300"></iframe>
<img src="${sonde}/api/charts/x.chart.json/data">
<script>
  window.fetched = fetch('${sonde}/api/dashboards', { mode: 'no-cors' }).then(() => 'sent', () => 'failed');
  window.socket = new Promise((resolve) => {
    const ws = new WebSocket('ws://127.0.0.1:${port}/mcp/ws', 'mcp');
    ws.onopen = () => resolve('open');
    ws.onerror = () => resolve('refused');
  });
</script>`;
const server = createServer((req, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end(attack));
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const other = server.address().port;

const browser = await launchChromium();
const { check, finish } = checks();

// localhost is another site than 127.0.0.1; 127.0.0.1 on another port is the same site
for (const [label, origin] of [['another site', `http://localhost:${other}`], ['the same site', `http://127.0.0.1:${other}`]]) {
  const page = await browser.newPage({ viewport: { width: 900, height: 600 } });
  const toSonde = [];
  page.on('response', (r) => { if (r.url().startsWith(sonde)) toSonde.push([new URL(r.url()).pathname, r.status()]); });

  await page.goto(`${origin}/`);
  await page.waitForLoadState('load');

  await check(`a page on ${label} cannot frame Sonde`, async () => {
    const framed = page.frames().find((f) => f !== page.mainFrame());
    const shown = await framed.$('#connection').catch(() => null);
    assert.equal(shown, null, 'the job view rendered inside the frame');
  });

  // the image's answer is hidden by the browser (opaque-response blocking), the frame's and the
  // fetch's are seen: every answer Sonde gave this page refuses it
  await check(`a page on ${label} gets only 403 from Sonde, the frame and the API alike`, async () => {
    assert.equal(await page.evaluate(() => window.fetched), 'sent');
    const deadline = Date.now() + 10000;
    while (toSonde.length < 2 && Date.now() < deadline) await page.waitForTimeout(50);
    assert.deepEqual(toSonde.map(([path]) => path).sort(), ['/', '/api/dashboards'], JSON.stringify(toSonde));
    assert.deepEqual(toSonde.map(([, status]) => status), [403, 403], JSON.stringify(toSonde));
  });

  await check(`a page on ${label} cannot open the MCP WebSocket`, async () => {
    assert.equal(await page.evaluate(() => window.socket), 'refused');
  });

  if (label === 'another site') {
    await page.screenshot({ path: join(shots, 'cross-site-frame-blocked.png') });
    await check('a link from another site still opens Sonde', async () => {
      await page.click('#link');
      await page.waitForSelector('#connection[data-state="live"]', { timeout: 15000 });
      assert.equal(new URL(page.url()).port, String(port));
    });
  }
  await page.close();
}

await browser.close();
server.close();
finish();
