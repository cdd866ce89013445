// Every action's result carries structuredContent valid against the tool's outputSchema,
// checked by the MCP SDK's own Client (it validates each call against the listed schema and
// throws on a mismatch), through the built `procmux mcp` over stdio.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { assertNoLeakedProcesses, trackPid } from '@procmux/test-utils';
import { RESULT_JSON_SCHEMA, type ToolResultData } from '@procmux/tools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

let root: string;
let state: string;
let client: Client;
const called = new Set<string>();

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'procmux-structured-'));
  state = mkdtempSync(join(tmpdir(), 'procmux-structured-state-'));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', '--cwd', root, '--state-dir', state],
    stderr: 'pipe',
  });
  client = new Client({ name: 'procmux-structured', version: '1.0.0' });
  await client.connect(transport);
  trackPid(transport.pid ?? undefined);
});
afterAll(async () => {
  await client.close();
  rmSync(root, { recursive: true, force: true });
  rmSync(state, { recursive: true, force: true });
  await assertNoLeakedProcesses();
});

/** One call; the client has already validated structuredContent against the outputSchema. */
async function call(name: 'exec' | 'process', args: Record<string, unknown>) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = (result.content[0] as { type: 'text'; text: string }).text;
  const data = result.structuredContent as ToolResultData;
  expect(data).toBeDefined();
  expect(result._meta?.['procmux/result']).toEqual(data);
  called.add(`${name} ${String(args.mode ?? args.action ?? 'one_shot')}${result.isError ? ' (error)' : ''}`);
  return { text, isError: result.isError === true, data };
}

describe('structured results through the SDK client', () => {
  it('lists the same output schema for both tools', async () => {
    const { tools } = await client.listTools();
    for (const name of ['exec', 'process']) {
      expect(tools.find((t) => t.name === name)?.outputSchema).toEqual(RESULT_JSON_SCHEMA);
    }
  });

  it('every exec mode and process action returns structuredContent that validates', async () => {
    const one = await call('exec', { command: 'echo hi; exit 3' });
    expect(one.data).toMatchObject({ tool: 'exec', action: 'one_shot', output: 'hi', backgrounded: false });
    expect(one.data.session).toMatchObject({ state: 'exited', exitCode: 3, signal: null, stdioMode: 'pipe' });
    expect(typeof one.data.session?.pid).toBe('number');

    const cut = await call('exec', { command: 'seq 1 200000' });
    expect(cut.data.cut?.omittedBytes).toBeGreaterThan(0);

    const secret = await call('exec', { command: 'read -s -p "Password: " pw' });
    expect(secret.isError).toBe(true);
    expect(secret.data.waitingInput).toMatchObject({ echo: false, prompt: 'Password:' });

    const yielded = await call('exec', { command: 'sleep 0.3; echo late', yield_ms: 0 });
    expect(yielded.data.backgrounded).toBe(true);

    const bad = await call('exec', { command: 'x', timeout_ms: 0 });
    expect(bad.data.error).toEqual({
      code: 'ERR_INVALID_OPTION',
      message: 'timeout_ms must be an integer from 1 to 86400000 (got 0)',
    });

    const daemon = await call('exec', { command: 'cat', mode: 'daemon' });
    const pipeId = daemon.data.session!.id;
    expect(daemon.data.session).toMatchObject({ state: 'running', stdioMode: 'pipe' });
    await call('process', { action: 'write', session_id: pipeId, data: 'one\n' });
    const waited = await call('process', { action: 'wait_for', session_id: pipeId, pattern: '^one$' });
    expect(waited.data.wait).toMatchObject({ outcome: 'matched', match: 'one' });
    const polled = await call('process', { action: 'poll', session_id: pipeId, timeout: -1 });
    expect(polled.data.timeout).toEqual({ requested: -1, used: 0 });
    const log = await call('process', { action: 'log', session_id: pipeId, offset: 0, limit: 5 });
    expect(log.data.lines).toMatchObject({ offset: 0, count: 1, total: 1 });
    await call('process', { action: 'close_stdin', session_id: pipeId });

    const repl = await call('exec', { command: 'bash --norc -i', mode: 'session' });
    const ptyId = repl.data.session!.id;
    expect(repl.data.session!.stdioMode).toBe('pty');
    await call('process', { action: 'paste', session_id: ptyId, text: 'read -p "name? " n' });
    await call('process', { action: 'submit', session_id: ptyId });
    // bash at its own prompt waits for input too: first see the question, then its read.
    await call('process', { action: 'wait_for', session_id: ptyId, pattern: 'name\\? $' });
    const input = await call('process', { action: 'wait_for', session_id: ptyId, input: true });
    expect(input.data.wait?.outcome).toBe('input');
    expect(input.data.session?.waitingInput).toMatchObject({ echo: true, prompt: 'name?' });
    await call('process', { action: 'send_keys', session_id: ptyId, keys: ['C-c'] });
    const recorded = await call('process', { action: 'record', session_id: ptyId });
    expect(recorded.data.recording?.path).toBe(join(root, `${ptyId}.cast`));
    const list = await call('process', { action: 'list' });
    expect(list.data.sessions?.map((s) => s.id)).toEqual(expect.arrayContaining([pipeId, ptyId]));
    const killed = await call('process', { action: 'kill', session_id: ptyId });
    expect(killed.data.session?.state).toBe('killed');
    const missing = await call('process', { action: 'poll', session_id: 'proc_nope' });
    expect(missing.data.error?.code).toBe('ERR_PROCESS_NOT_FOUND');

    await call('process', { action: 'kill', session_id: yielded.data.session!.id });
    await call('process', { action: 'kill', session_id: pipeId });
    expect([...called].sort()).toEqual(
      [
        'exec daemon',
        'exec one_shot',
        'exec one_shot (error)',
        'exec session',
        'process close_stdin',
        'process kill',
        'process list',
        'process log',
        'process paste',
        'process poll',
        'process poll (error)',
        'process record',
        'process send_keys',
        'process submit',
        'process wait_for',
        'process write',
      ].sort(),
    );
  });

  it("a full-screen program's wait quotes no prompt: vim's cursor row is its text", async () => {
    const vim = await call('exec', { command: 'exec vim -u NONE -N notes.txt', mode: 'session' });
    const id = vim.data.session!.id;
    // exec's reply showed vim's first screen: its bottom row counts, as the screen shows it now.
    const shown = await call('process', {
      action: 'wait_for',
      session_id: id,
      pattern: 'notes\\.txt',
      timeout: 5_000,
    });
    expect(shown.data.wait).toMatchObject({ outcome: 'matched', alreadyShown: true });
    expect(shown.text).toContain('on the screen (already shown)');
    await call('process', { action: 'write', session_id: id, data: 'ihello world' });
    await call('process', { action: 'send_keys', session_id: id, keys: ['Escape'] });
    await call('process', { action: 'wait_for', session_id: id, pattern: 'hello world' });
    const waiting = await call('process', { action: 'wait_for', session_id: id, input: true });
    expect(waiting.data.wait?.outcome).toBe('input');
    expect(waiting.data.session?.waitingInput).toMatchObject({ prompt: '', fullScreen: true });
    expect(waiting.text).toContain(
      'Process is waiting for input (a full-screen program: the screen shows where).',
    );
    expect(waiting.text).not.toContain('hello worl"');
    await call('process', { action: 'write', session_id: id, data: ':q!\r' });
    const ended = await call('process', { action: 'wait_for', session_id: id, exit: true });
    expect(ended.data.session?.state).toBe('exited');
  });
});
