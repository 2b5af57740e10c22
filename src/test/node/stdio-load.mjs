// A closed-loop MCP client over stdio: starts the server command, initializes, then calls one tool
// again and again for the given seconds; prints "calls/s p50_ms p99_ms errors".
// usage: node stdio-load.mjs SECONDS TOOL ARGUMENTS_JSON -- command args...
// (LOAD_WARMUP_SECONDS, default 3, of unmeasured calls come first)
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const [seconds, tool, argsJson, sep, ...command] = process.argv.slice(2);
if (sep !== '--' || command.length === 0) {
  console.error('usage: node stdio-load.mjs SECONDS TOOL ARGUMENTS_JSON -- command args...');
  process.exit(2);
}
const server = spawn(command[0], command.slice(1), { stdio: ['pipe', 'pipe', 'ignore'] });
const pending = new Map();
createInterface({ input: server.stdout }).on('line', (line) => {
  let message;
  try { message = JSON.parse(line); } catch { return; }
  const done = pending.get(message.id);
  if (done) { pending.delete(message.id); done(message); }
});
let nextId = 1;
const send = (method, params) => new Promise((resolve) => {
  const id = nextId++;
  pending.set(id, resolve);
  server.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
});
await send('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'stdio-load', version: '1' } });
server.stdin.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
const args = JSON.parse(argsJson);
const call = () => send('tools/call', { name: tool, arguments: args });
const warmEnd = Date.now() + Number(process.env.LOAD_WARMUP_SECONDS ?? 3) * 1000;
while (Date.now() < warmEnd) await call();
const samples = [];
let errors = 0;
const end = Date.now() + Number(seconds) * 1000;
while (Date.now() < end) {
  const start = process.hrtime.bigint();
  const answer = await call();
  samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  if (answer.error || answer.result?.isError) errors++;
}
samples.sort((a, b) => a - b);
const pct = (p) => samples[Math.min(samples.length - 1, Math.floor(p * samples.length))];
console.log(`${(samples.length / Number(seconds)).toFixed(0)} ${pct(0.5).toFixed(3)} ${pct(0.99).toFixed(3)} ${errors}`);
server.kill();
process.exit(0);
