// One MCP tools/call over stdio, for a big answer: starts the server command, initializes, calls
// the tool once, and prints "seconds_to_answer answer_bytes peak_rss_mb outcome" (or "failed seconds reason peak_rss_mb").
// usage: node stdio-once.mjs TIMEOUT_SECONDS TOOL ARGUMENTS_JSON -- command args...
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

const [timeoutSeconds, tool, argsJson, sep, ...command] = process.argv.slice(2);
if (sep !== '--' || command.length === 0) {
  console.error('usage: node stdio-once.mjs TIMEOUT_SECONDS TOOL ARGUMENTS_JSON -- command args...');
  process.exit(2);
}
const server = spawn(command[0], command.slice(1), { stdio: ['pipe', 'pipe', 'ignore'] });
const peakRssMb = () => {
  try {
    const line = readFileSync(`/proc/${server.pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmHWM:'));
    return Math.round(Number(line.split(/\s+/)[1]) / 1024);
  } catch { return 'gone'; }
};
let start = 0;
const finish = (text) => { console.log(text); server.kill('SIGKILL'); process.exit(0); };
const timer = setTimeout(() => finish(`failed ${timeoutSeconds} no-answer-within-timeout ${peakRssMb()}`), Number(timeoutSeconds) * 1000);
server.on('exit', (code, signal) => {
  if (start) finish(`failed ${((Date.now() - start) / 1000).toFixed(3)} server-exited-${signal ?? code} gone`);
});
// read raw chunks: a single answer line may be far larger than a readline buffer should hold
let buffered = '';
server.stdout.on('data', (chunk) => {
  buffered += chunk.toString('utf8');
  if (buffered.length > 200e6) {
    finish(`failed ${((Date.now() - start) / 1000).toFixed(3)} answer-over-200MB ${peakRssMb()}`);
  }
  let newline;
  while ((newline = buffered.indexOf('\n')) >= 0) {
    const line = buffered.slice(0, newline);
    buffered = buffered.slice(newline + 1);
    let message;
    try { message = JSON.parse(line); } catch { continue; }
    if (message.id === 1) {
      server.stdin.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
      start = Date.now();
      server.stdin.write(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: tool, arguments: JSON.parse(argsJson) } }) + '\n');
    } else if (message.id === 2) {
      clearTimeout(timer);
      const bytes = Buffer.byteLength(line);
      // a short answer is an error: show what it says
      const outcome = bytes < 2000 ? JSON.stringify(message.error?.message ?? message.result?.content?.[0]?.text ?? '').slice(0, 120) : 'rows';
      finish(`${((Date.now() - start) / 1000).toFixed(3)} ${bytes} ${peakRssMb()} ${outcome}`);
    }
  }
});
server.stdin.write(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'stdio-once', version: '1' } } }) + '\n');
