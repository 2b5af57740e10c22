// The official TypeScript SDK client using the documentation tools of a packaged Sonde whose config
// adds part of the DuckDB corpus, over Streamable HTTP and WebSocket.
// usage: node ts-docs.mjs <port>   Prints "N passed, M failed".
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { WebSocketClientTransport } from '@modelcontextprotocol/sdk/client/websocket.js';
import assert from 'node:assert/strict';
import { runChecks } from './run-checks.mjs';

const port = Number(process.argv[2]);
const transports = {
  http: () => new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)),
  websocket: () => new WebSocketClientTransport(new URL(`ws://127.0.0.1:${port}/mcp/ws`)),
};

async function connect(kind) {
  const client = new Client({ name: 'sonde-ts-docs', version: '1.0.0' });
  await client.connect(transports[kind]());
  return client;
}

async function call(client, name, args) {
  const result = await client.callTool({ name, arguments: args });
  assert.equal(result.isError ?? false, false, JSON.stringify(result));
  return result.structuredContent;
}

const checks = {
  async 'search, then read the section it found'(client) {
    const found = await call(client, 'search_documents', { keyword: 'How do I add a column to an existing table?' });
    const first = found.results[0];
    assert.equal(first.path, 'stable/sql/statements/alter_table.md', JSON.stringify(found.results.slice(0, 3)));
    const section = await call(client, 'get_full_document_content', {
      file_identifier: first.file_identifier,
      section: 'ADD COLUMN',
    });
    assert.match(section.content, /ALTER TABLE integers\s+ADD COLUMN k INTEGER/);
  },

  async 'a Chinese question finds the Chinese page'(client) {
    const found = await call(client, 'search_documents', { keyword: '窗口函数', limit: 3 });
    assert.equal(found.results[0].path, 'stable-zh/sql/functions/window_functions.md');
  },

  async 'code blocks come numbered with their language'(client) {
    const code = await call(client, 'extract_code_blocks', {
      file_identifier: 'https://duckdb.org/docs/stable/sql/query_syntax/qualify',
      language: 'sql',
    });
    assert.ok(code.count > 0);
    assert.ok(code.blocks.every((b, i) => b.language === 'sql' && (i === 0 || b.index > code.blocks[i - 1].index)));
    assert.ok(code.blocks.some((b) => /QUALIFY/.test(b.code)));
  },

  async "Sonde's own manual is searchable and read from the jar"(client) {
    const found = await call(client, 'search_documents', { keyword: 'schedule recurring queries', source: 'sonde' });
    assert.equal(found.results[0].path, 'howto/schedule-recurring-queries.md');
    const read = await client.readResource({ uri: 'sonde://docs/sonde/howto/schedule-recurring-queries.md' });
    assert.match(read.contents[0].text, /crontab|cron/);
  },

  async 'a bad request says what to change'(client) {
    const result = await client.callTool({ name: 'search_documents', arguments: { keyword: 'x', version: 'v9' } });
    assert.equal(result.isError, true);
    assert.match(result.content[0].text, /no version 'v9'.*use one of \[/);
  },
};

await runChecks(Object.keys(transports), checks, connect, (client) => client.close());
