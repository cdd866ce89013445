// End to end: the built `procmux mcp` (node dist/cli.js mcp) driven by the MCP SDK's own
// Client over stdio, as a host would run it. global-setup.ts builds dist/ first.
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  assertNoLeakedProcesses,
  descendantsOf,
  isAlive,
  testTmpdir,
  trackPid,
  waitFor,
  withoutUsage,
} from '@procmux/test-utils';
import type { SessionSummary, ToolResultData } from '@procmux/tools';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

let root: string;
let client: Client;
let transport: StdioClientTransport;
let stderr: string;

beforeEach(async () => {
  root = mkdtempSync(join(testTmpdir(), 'procmux-e2e-'));
  stderr = '';
  transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', '--cwd', root],
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  client = new Client({ name: 'procmux-e2e', version: '1.0.0' });
  await client.connect(transport);
  trackPid(transport.pid ?? undefined);
});
afterEach(async () => {
  await client.close();
  rmSync(root, { recursive: true, force: true });
});
afterAll(async () => {
  await assertNoLeakedProcesses();
});

type Data = ToolResultData & { session: SessionSummary };

async function call(
  name: string,
  args: Record<string, unknown>,
): Promise<{ text: string; isError: boolean; data: Data }> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = (result.content[0] as { type: 'text'; text: string }).text;
  return { text, isError: result.isError === true, data: result._meta?.['procmux/result'] as Data };
}

describe('procmux mcp over stdio', () => {
  it('serves the tools, drives a REPL, and leaves no process once the client closes', async () => {
    const serverPid = transport.pid!;
    const { tools } = await client.listTools();
    // procmux_terminal is the terminal app's (MCP Apps visibility "app": hosts keep it from models).
    expect(tools.map((t) => t.name).sort()).toEqual(['exec', 'process', 'procmux_terminal']);
    expect(tools.find((t) => t.name === 'process')!.inputSchema.properties).toHaveProperty('session_id');

    const echo = await call('exec', { command: 'echo hello over mcp' });
    expect(echo.isError).toBe(false);
    expect(withoutUsage(echo.text)).toBe('hello over mcp\n\nProcess exited with code 0.');

    const repl = await call('exec', { command: 'python3 -i', mode: 'session' });
    expect(repl.text).toMatch(/^Started session proc_\S+ \(pid \d+, terminal\): python3 -i\n/);
    const id: string = repl.data.session.id;
    if (!/^>>>/m.test(repl.text))
      await call('process', { action: 'wait_for', session_id: id, pattern: '^>>>' });
    await call('process', { action: 'paste', session_id: id, text: 'def square(x):\n    return x * x\n' });
    await call('process', { action: 'submit', session_id: id });
    await call('process', { action: 'paste', session_id: id, text: 'print("answer", square(12))' });
    const submitted = await call('process', { action: 'submit', session_id: id });
    expect(submitted.text).toBe(`Pressed Enter in ${id}.\nProcess still running.`);
    let seen = '';
    for (let i = 0; i < 5 && !seen.includes('answer 144'); i++) {
      seen += (await call('process', { action: 'poll', session_id: id, timeout: 3000 })).text;
    }
    expect(seen).toMatch(/^answer 144$/m);

    const daemon = await call('exec', { command: 'sleep 3; echo "ready on 8080"; sleep 60', mode: 'daemon' });
    const daemonId: string = daemon.data.session.id;
    const ready = await call('process', {
      action: 'wait_for',
      session_id: daemonId,
      pattern: 'ready on (\\d+)',
      timeout: 10_000,
    });
    expect(ready.text).toContain('Matched /ready on (\\d+)/: "ready on 8080".');

    // Every process the server runs is its descendant: remember them all, then check each dies.
    const pids = [serverPid, ...descendantsOf(serverPid).map((p) => p.pid)];
    expect(pids).toContain(repl.data.session.pid!);
    expect(pids).toContain(daemon.data.session.pid!);

    const killed = await call('process', { action: 'kill', session_id: daemonId });
    expect(killed.text).toMatch(
      /^Killed proc_\S+ and every process it started\.\nProcess killed by SIG[A-Z]+\.$/,
    );
    expect(isAlive(daemon.data.session.pid!)).toBe(false);

    const list = await call('process', { action: 'list' });
    expect(list.text.split('\n')[0]).toBe('3 sessions:');
    expect(list.text).toContain(`${id}  running`);
    expect(list.text).toContain(`${daemonId}  killed SIG`);

    // The REPL is still running: closing the client must take it and the server down.
    await client.close();
    await waitFor(
      () => pids.every((pid) => !isAlive(pid)),
      15_000,
      'the server and every process it started to end',
    );
    expect(stderr).toContain('procmux mcp: the client closed stdin; killing every session');
  });

  it('reports tool errors as error results, not protocol failures', async () => {
    const bad = await call('process', { action: 'poll', session_id: 'proc_missing' });
    expect(bad.isError).toBe(true);
    expect(bad.text).toContain('Error [ERR_PROCESS_NOT_FOUND]');
    const invalid = await call('exec', { command: 'ls', mode: 'forever' });
    expect(invalid.text).toBe(
      'Error [ERR_INVALID_OPTION]: mode must be one of one_shot, session, daemon (got "forever")',
    );
  });
});
