// `procmux mcp --max-sessions N` holds when the client fires its starts together: the
// (N+1)th concurrent exec is ERR_PROCESS_LIMIT, as the registry reserves each slot before
// its first await. Driven by the official MCP SDK client over stdio.
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { assertNoLeakedProcesses, trackPid } from '@procmux/test-utils';
import { afterAll, expect, it } from 'vitest';

const CLI = fileURLToPath(new URL('../node_modules/@procmux/mcp/dist/cli.js', import.meta.url));

afterAll(async () => {
  await assertNoLeakedProcesses();
});

it('refuses the 5th of 12 concurrent starts at --max-sessions 4 with ERR_PROCESS_LIMIT', async () => {
  const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'procmux-limits-')));
  // A state dir of its own, not one in ~/.local/state (the server's default).
  const state = mkdtempSync(join(tmpdir(), 'pm-state-'));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', '--cwd', workspace, '--state-dir', state, '--max-sessions', '4'],
    stderr: 'ignore',
  });
  const client = new Client({ name: 'procmux-limits', version: '1.0.0' });
  await client.connect(transport);
  trackPid(transport.pid ?? undefined);
  try {
    const results = (await Promise.all(
      Array.from({ length: 12 }, () =>
        client.callTool({ name: 'exec', arguments: { command: 'sleep 60', mode: 'daemon' } }),
      ),
    )) as CallToolResult[];
    const codes = results.map(
      (r) => (r._meta?.['procmux/result'] as { error?: { code: string } } | undefined)?.error?.code,
    );
    expect(codes.filter((code) => code === undefined)).toHaveLength(4);
    expect(codes.filter((code) => code === 'ERR_PROCESS_LIMIT')).toHaveLength(8);
  } finally {
    await client.close();
    rmSync(workspace, { recursive: true, force: true });
    rmSync(state, { recursive: true, force: true });
  }
});
