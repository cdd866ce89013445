// `procmux mcp` under the calls that used to take it down, freeze it or blow its replies past
// the budget (issue 15), each through the built server as a host runs it.
import { rmSync } from 'node:fs';
import { assertNoLeakedProcesses, isAlive, withoutUsage } from '@procmux/test-utils';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { endStateDirs, type RawServer, type SdkServer, startRaw, startSdk, workspace } from './server.js';

const BUDGET = 30_000;
const roots: string[] = [];
const open: { close(): Promise<void> }[] = [];

function root(): string {
  const dir = workspace();
  roots.push(dir);
  return dir;
}

async function sdk(...args: string[]): Promise<SdkServer> {
  const server = await startSdk(root(), args);
  open.push(server);
  return server;
}

async function raw(...args: string[]): Promise<RawServer> {
  const server = await startRaw(root(), args);
  open.push(server);
  return server;
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close().catch(() => {})));
});

afterAll(async () => {
  for (const dir of roots) rmSync(dir, { recursive: true, force: true });
  endStateDirs();
  await assertNoLeakedProcesses();
});

const text = (reply: { result?: { content?: { text: string }[] } }) => reply.result?.content?.[0]?.text ?? '';

describe('procmux mcp survives any request', () => {
  it('answers a request over 10 MiB with an error naming the limit; the server and its sessions go on', async () => {
    const server = await raw();
    const daemon = await server.request(1, 'tools/call', {
      name: 'exec',
      arguments: { command: 'sleep 60', mode: 'daemon' },
    });
    const daemonPid = Number(/pid (\d+)/.exec(text(daemon))?.[1]);
    expect(isAlive(daemonPid)).toBe(true);
    const huge = JSON.stringify({
      method: 'tools/call',
      params: {
        name: 'process',
        arguments: { action: 'paste', session_id: 'x', text: 'y'.repeat(11 * 1024 * 1024) },
      },
      jsonrpc: '2.0',
      id: 'huge',
    });
    await server.write(`${huge}\n`);
    const refused = await server.reply('huge', 60_000);
    expect(refused.error?.code).toBe(-32600);
    expect(refused.error?.message).toContain(
      `message of ${Buffer.byteLength(huge).toLocaleString('en-US')} bytes is over this server's limit of 8,388,608 bytes per message`,
    );
    expect(isAlive(server.pid)).toBe(true);
    expect(isAlive(daemonPid)).toBe(true);
    const after = await server.request(2, 'tools/call', {
      name: 'exec',
      arguments: { command: 'echo still serving' },
    });
    expect(withoutUsage(text(after))).toBe('still serving\n\nProcess exited with code 0.');
  });

  it('never stalls on ^(a+)+$ against 27 a\'s and "!": a concurrent list is answered first', async () => {
    const server = await sdk();
    const started = await server.call('exec', {
      command: `printf '${'a'.repeat(27)}!\\n'; sleep 60`,
      mode: 'daemon',
    });
    const id = /(proc_[\w-]+)/.exec(started.text)![1]!;
    const order: string[] = [];
    const waiting = server
      .call('process', { action: 'wait_for', session_id: id, pattern: '^(a+)+$', timeout: 5_000 })
      .then((r) => {
        order.push('wait_for');
        return r;
      });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const list = await server.call('process', { action: 'list' });
    order.push('list');
    expect(list.text).toContain(id);
    expect((await waiting).text).toContain('Timed out after 5000 ms: /^(a+)+$/ did not appear.');
    expect(order).toEqual(['list', 'wait_for']);
    const unsupported = await server.call('process', {
      action: 'wait_for',
      session_id: id,
      pattern: '(a)\\1',
    });
    expect(unsupported.text).toContain('Error [ERR_INVALID_OPTION]: pattern "(a)\\\\1" cannot be used');
    expect(unsupported.text).toContain('backreferences (\\1, \\k<name>) and lookaround');
  });

  it('repeats a 100 KB session_id only as a prefix and its length', async () => {
    const server = await sdk();
    const r = await server.call('process', { action: 'poll', session_id: 's'.repeat(100_000) });
    expect(r.isError).toBe(true);
    expect(r.text.length).toBeLessThan(300);
    expect(r.text).toContain(`no session with id "${'s'.repeat(60)}"… (100,000 characters)`);
    const unknownKey = await server.call('exec', { command: 'true', ['k'.repeat(100_000)]: 1 });
    expect(unknownKey.text.length).toBeLessThan(400);
    expect(unknownKey.text).toContain('(100,000 characters)');
  });

  it('answers "jsonrpc": "1.0" with an error response', async () => {
    const server = await raw();
    await server.write(`${JSON.stringify({ jsonrpc: '1.0', id: 'old', method: 'tools/list' })}\n`);
    const reply = await server.reply('old');
    expect(reply.error).toEqual({
      code: -32600,
      message: '"jsonrpc" must be "2.0" (got "1.0"); this server speaks JSON-RPC 2.0 only',
    });
  });

  it('answers tools/call without a name or with non-object arguments with -32602 in words', async () => {
    const server = await raw();
    const noName = await server.request('a', 'tools/call', { arguments: { command: 'ls' } });
    expect(noName.error).toEqual({
      code: -32602,
      message: 'tools/call needs params.name, the tool to call: "exec" or "process" (got nothing)',
    });
    const stringArgs = await server.request('b', 'tools/call', { name: 'exec', arguments: 'ls -la' });
    expect(stringArgs.error).toEqual({
      code: -32602,
      message: 'tools/call params.arguments must be an object of named parameters (got the string "ls -la")',
    });
    const arrayArgs = await server.request('c', 'tools/call', { name: 'exec', arguments: ['ls'] });
    expect(arrayArgs.error?.message).toContain('(got an array)');
  });

  it('says a NUL in command is the problem', async () => {
    const server = await sdk();
    const r = await server.call('exec', { command: 'echo a\u0000b' });
    expect(r.text).toBe(
      'Error [ERR_INVALID_OPTION]: command contains a NUL character (\\0) at character 6; a command line cannot carry NUL, so remove it',
    );
  });

  it('keeps every result within the budget, errors included', async () => {
    const server = await sdk();
    const started = await server.call('exec', { command: 'cat', mode: 'daemon' });
    const id = /(proc_[\w-]+)/.exec(started.text)![1]!;
    const calls: [string, Record<string, unknown>][] = [
      ['exec', { command: `echo ${'z'.repeat(200_000)}` }],
      ['exec', { command: 'yes "error: line" | head -c 3000000' }],
      ['exec', { command: 'true', cwd: 'd'.repeat(100_000) }],
      ['exec', { command: 'true', env: { ['E'.repeat(50_000)]: 'x' } }],
      [
        'process',
        { action: 'send_keys', session_id: id, keys: Array.from({ length: 5_000 }, () => 'Enter') },
      ],
      ['process', { action: 'send_keys', session_id: id, keys: ['K'.repeat(100_000)] }],
      ['process', { action: 'wait_for', session_id: id, pattern: 'p'.repeat(4_000), timeout: 200 }],
      ['process', { action: 'write', session_id: id, data: `${'w'.repeat(60_000)}\n` }],
      ['process', { action: 'poll', session_id: id, timeout: 500 }],
      ['process', { action: 'log', session_id: id }],
    ];
    for (const [name, args] of calls) {
      const r = await server.call(name, args);
      expect(r.text.length, `${name} ${JSON.stringify(args).slice(0, 80)}`).toBeLessThanOrEqual(BUDGET);
    }
  });
});
