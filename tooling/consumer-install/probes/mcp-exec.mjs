// Run inside a consumer's project after `npm i @procmux/mcp`: the installed `procmux mcp`
// server over stdio, driven by the MCP SDK it brought along, runs `exec` once and serves the
// terminal app's page (built into dist/app/, so it must be in the tarball).
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const transport = new StdioClientTransport({
  command: process.execPath,
  args: ['node_modules/@procmux/mcp/dist/cli.js', 'mcp', '--cwd', process.cwd()],
});
const client = new Client({ name: 'consumer-install', version: '0.0.0' });
await client.connect(transport);
try {
  const result = await client.callTool({ name: 'exec', arguments: { command: 'echo exec through mcp' } });
  const text = result.content.map((part) => part.text ?? '').join('');
  assert.notEqual(result.isError, true, text);
  assert.match(text, /exec through mcp/);
  assert.match(text, /exited with code 0/);
  const page = (await client.readResource({ uri: 'ui://procmux/terminal' })).contents[0];
  assert.equal(page.mimeType, 'text/html;profile=mcp-app');
  assert.match(page.text, /^<!doctype html>[\s\S]*<\/html>\n$/);
  console.log('mcp exec: ok');
} finally {
  await client.close();
}
