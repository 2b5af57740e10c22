// Headless Chromium signing in to a Sonde in auth.mode: tokens: the viewer sends it to the sign-in
// page, a wrong token is refused there, alice's token brings it back to her own dashboards (never
// bob's, not even by their path), the session cookie is HttpOnly and SameSite=Strict and the page
// never holds the token, a change without the CSRF value is refused, and a form posted from another
// site changes nothing.
// usage: node signin-view.mjs <port> <screenshot-dir> <alice's token> <bob's token>.
// Prints "N passed, M failed".
import { checks, launchChromium } from './browser-checks.mjs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { join } from 'node:path';

const [port, shots, alice, bob] = [Number(process.argv[2]), process.argv[3], process.argv[4], process.argv[5]];
const base = `http://127.0.0.1:${port}`;

async function board(token, filename) {
  const client = new Client({ name: 'signin-view-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  }));
  const result = await client.callTool({
    name: 'create_dashboard_with_charts',
    arguments: { filename, overwrite: true, charts: [{ title: `${filename} notes`, type: 'Text', text: `made for ${filename}` }] },
  });
  assert.ok(!result.isError, JSON.stringify(result.content));
  await client.close();
}
await board(alice, 'alices/board.dsh');
await board(bob, 'bobs/board.dsh');

const browser = await launchChromium();
const context = await browser.newContext({ viewport: { width: 1100, height: 760 } });
const page = await context.newPage();
const errors = [];
page.on('pageerror', (e) => errors.push(e.message));
const { check, finish } = checks();

await check('the viewer sends a visitor without a session to the sign-in page', async () => {
  await page.goto(`${base}/dashboards.html`);
  await page.waitForURL(/signin\.html\?next=/);
  assert.equal(new URL(page.url()).searchParams.get('next'), '/dashboards.html');
  await page.screenshot({ path: join(shots, 'signin.png') });
});

await check('a wrong token is refused on the sign-in page and sets no cookie', async () => {
  await page.fill('#token', 'sonde_0123456789abcdef_' + 'A'.repeat(43));
  await page.click('button[type=submit]');
  await page.waitForSelector('#problem:not([hidden])');
  assert.match(await page.textContent('#problem'), /unknown or revoked/);
  assert.deepEqual(await context.cookies(), []);
  await page.screenshot({ path: join(shots, 'signin-refused.png') });
});

await check("alice's token brings her back to her own dashboards, never bob's", async () => {
  await page.fill('#token', alice);
  await page.click('button[type=submit]');
  await page.waitForURL(`${base}/dashboards.html`);
  await page.waitForSelector('#dashboards a[href="#alices/board.dsh"]');
  const listed = await page.$$eval('#dashboards a', (links) => links.map((a) => a.getAttribute('href')));
  assert.ok(!listed.some((href) => href.includes('bobs/')), listed.join());
  assert.equal(await page.inputValue('#token').catch(() => ''), '', 'the token stays on no page');
  await page.click('#dashboards a[href="#alices/board.dsh"]');
  await page.waitForFunction(() => document.body.textContent.includes('made for alices/board.dsh'));
  await page.screenshot({ path: join(shots, 'signin-dashboards.png') });
});

await check("bob's dashboard does not open by its path in alice's viewer", async () => {
  const answer = await page.evaluate(async () => (await fetch('/api/dashboards/bobs/board.dsh')).status);
  assert.equal(answer, 404);
  await page.goto(`${base}/dashboards.html#bobs/board.dsh`);
  await page.waitForTimeout(500);
  assert.ok(!(await page.content()).includes('made for bobs/board.dsh'));
});

await check("bob's dashboard opens read-only through the link that names his account", async () => {
  await page.goto(`${base}/dashboards.html#bob/bobs/board.dsh`);
  await page.waitForFunction(() => document.body.textContent.includes('made for bobs/board.dsh'));
  assert.match(await page.textContent('#title'), /\(bob's, read-only\)/);
  const listed = await page.$$eval('#dashboards a', (links) => links.map((a) => a.getAttribute('href')));
  assert.ok(!listed.some((href) => href.includes('bobs/')), 'his board is not in her list: ' + listed.join());
  await page.screenshot({ path: join(shots, 'signin-shared.png') });
});

await check('the session cookie is HttpOnly and SameSite=Strict, and page script cannot read it', async () => {
  const [cookie, ...more] = await context.cookies();
  assert.equal(more.length, 0);
  assert.equal(cookie.name, 'sonde_session');
  assert.equal(cookie.httpOnly, true);
  assert.equal(cookie.sameSite, 'Strict');
  assert.ok(!cookie.value.includes(alice.slice(-20)), 'the cookie is not the token');
  assert.equal(await page.evaluate(() => document.cookie), '');
  const who = await page.evaluate(async () => (await fetch('/api/session')).json());
  assert.equal(who.account, 'alice');
  assert.ok(who.csrf.length > 20);
});

await check('a change without the CSRF value is refused, and with it goes through', async () => {
  const statuses = await page.evaluate(async () => {
    const without = (await fetch('/api/jobs/none', { method: 'DELETE' })).status;
    const { csrf } = await (await fetch('/api/session')).json();
    const withIt = (await fetch('/api/jobs/none', { method: 'DELETE', headers: { 'X-Sonde-CSRF': csrf } })).status;
    return [without, withIt];
  });
  assert.deepEqual(statuses, [403, 404]);
});

await check('a form posted from another site signs no one in and ends no session', async () => {
  const attack = `<!doctype html><meta charset="utf-8"><title>elsewhere</title>
<form id="f" method="POST" action="${base}/api/session" enctype="text/plain">
<input name='{"token":"${bob}","x":"' value='"}'></form>
<script>document.getElementById('f').submit();</script>`;
  const server = createServer((req, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end(attack));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const other = await context.newPage();
  const answers = [];
  other.on('response', (r) => { if (r.url().startsWith(base)) answers.push(r.status()); });
  await other.goto(`http://localhost:${server.address().port}/`);
  await other.waitForURL(`${base}/api/session`);
  server.close();
  assert.deepEqual(answers, [403]);
  await other.screenshot({ path: join(shots, 'signin-cross-site-form.png') });
  await other.close();
  const who = await page.evaluate(async () => (await fetch('/api/session')).json());
  assert.equal(who.account, 'alice', 'still alice, not bob');
  assert.equal((await context.cookies()).length, 1);
});

await check('the job view opens signed in, and signing out ends the session', async () => {
  await page.goto(`${base}/`);
  await page.waitForSelector('#connection[data-state="live"]');
  const after = await page.evaluate(async () => {
    const { csrf } = await (await fetch('/api/session')).json();
    await fetch('/api/session', { method: 'DELETE', headers: { 'X-Sonde-CSRF': csrf } });
    return (await fetch('/api/jobs')).status;
  });
  assert.equal(after, 401);
  assert.deepEqual(errors, []);
});

await browser.close();
finish();
