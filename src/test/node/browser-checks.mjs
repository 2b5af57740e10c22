// What the headless-Chromium scripts share: the browser as the tests launch it, named checks
// counted into the "N passed, M failed" line the Java side reads, and the SDK's clients.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { WebSocketClientTransport } from '@modelcontextprotocol/sdk/client/websocket.js';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';

/** The official TypeScript SDK connected to Sonde on {@code port} over HTTP and over WebSocket. */
export async function mcpClients(port, name) {
  const http = new Client({ name, version: '1.0.0' });
  await http.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
  const ws = new Client({ name: `${name}-ws`, version: '1.0.0' });
  await ws.connect(new WebSocketClientTransport(new URL(`ws://127.0.0.1:${port}/mcp/ws`)));
  return { http, ws };
}

/** A tool result's structured content, after checking it is not an error. */
export function structured(result) {
  assert.ok(!result.isError, JSON.stringify(result.content));
  return result.structuredContent;
}

export function launchChromium() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    // Playwright gives every launch a fresh temporary profile of its own
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-quic'],
  });
}

export function checks() {
  let passed = 0;
  let failed = 0;
  return {
    async check(name, body) {
      try {
        await body();
        passed++;
        console.log(`ok   ${name}`);
      } catch (e) {
        failed++;
        console.log(`FAIL ${name}: ${e?.stack ?? e}`);
      }
    },
    finish() {
      console.log(`${passed} passed, ${failed} failed`);
      process.exit(failed === 0 ? 0 : 1);
    },
  };
}
