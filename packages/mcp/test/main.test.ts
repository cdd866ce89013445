import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { assertNoLeakedProcesses, isAlive, waitFor } from '@procmux/test-utils';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CliProcess, main, nodeCliProcess, packageVersion, RESULT_META_KEY } from '../src/index.js';
import { StreamClientTransport } from './stream-transport.js';

interface FakeProcess extends CliProcess {
  out(): string;
  err(): string;
  stop(signal: NodeJS.Signals): void;
  crash(error: unknown): void;
  listeners(): number;
}

function fakeProcess(cwd: string): FakeProcess {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  stderr.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  const stops = new Set<(signal: NodeJS.Signals) => void>();
  const crashes = new Set<(error: unknown) => void>();
  return {
    stdin: new PassThrough(),
    stdout,
    stderr,
    cwd: () => cwd,
    env: {},
    onStopSignal(handler) {
      stops.add(handler);
      return () => stops.delete(handler);
    },
    onCrash(handler) {
      crashes.add(handler);
      return () => crashes.delete(handler);
    },
    out: () => out,
    err: () => err,
    stop: (signal) => {
      for (const handler of stops) handler(signal);
    },
    crash: (error) => {
      for (const handler of crashes) handler(error);
    },
    listeners: () => stops.size + crashes.size,
  };
}

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'procmux-main-'));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});
afterAll(async () => {
  await assertNoLeakedProcesses();
});

describe('main', () => {
  it('prints help and the version', async () => {
    const proc = fakeProcess(root);
    expect(await main(['--help'], proc)).toBe(0);
    expect(proc.out()).toContain(
      'procmux mcp [--cwd DIR] [--max-sessions N] [--max-ended-sessions N] [--allow-pty | --no-pty]',
    );
    expect(proc.out()).toContain('"mcpServers"');
    const v = fakeProcess(root);
    expect(await main(['--version'], v)).toBe(0);
    expect(v.out()).toBe(`${packageVersion()}\n`);
  });

  it('exits 2 with a hint on a usage error', async () => {
    const proc = fakeProcess(root);
    expect(await main(['serve'], proc)).toBe(2);
    expect(proc.err()).toBe(
      'procmux: unknown command "serve"; use mcp or demo\nRun procmux --help for usage.\n',
    );
  });

  it('exits 2 when the workspace does not exist', async () => {
    const proc = fakeProcess(root);
    expect(await main(['mcp', '--cwd', 'nope'], proc)).toBe(2);
    expect(proc.err()).toMatch(/^procmux: the workspace cwd does not exist or cannot be resolved: .*nope\n$/);
  });

  async function serving(proc: FakeProcess) {
    const exit = main(['mcp', '--cwd', root], proc);
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(new StreamClientTransport(proc.stdin as PassThrough, proc.stdout as PassThrough));
    const r = (await client.callTool({
      name: 'exec',
      arguments: { command: 'sleep 30', mode: 'daemon' },
    })) as CallToolResult;
    const pid = (r._meta![RESULT_META_KEY] as { session: { pid: number } }).session.pid;
    return { exit, pid };
  }

  it('serves MCP until a stop signal, then kills every session and exits 0', async () => {
    const proc = fakeProcess(root);
    const { exit, pid } = await serving(proc);
    proc.stop('SIGTERM');
    expect(await exit).toBe(0);
    expect(isAlive(pid)).toBe(false);
    expect(proc.err()).toContain('procmux mcp: got SIGTERM; killing every session');
    expect(proc.listeners()).toBe(0);
  });

  it('kills every session and exits 1 after an internal error', async () => {
    const proc = fakeProcess(root);
    const { exit, pid } = await serving(proc);
    proc.crash(new Error('boom'));
    expect(await exit).toBe(1);
    expect(isAlive(pid)).toBe(false);
    expect(proc.err()).toContain('procmux mcp: internal error: Error: boom');
  });

  it('runs the demo: exit 0, every step shown, nothing left running', async () => {
    const proc = fakeProcess(root);
    const code = await main(['demo'], proc);
    const out = proc.out();
    expect(code, out).toBe(0);
    for (const line of [
      '▶ exec {"command":"echo \\"hello from procmux\\" && uname -s"}',
      '│ hello from procmux',
      '▶ exec {"command":"python3 -i","mode":"session"}',
      '▶ process {"action":"send_keys","session_id":',
      '│ KeyboardInterrupt',
      '│ status 200',
      '"GET / HTTP/1.1" 200',
      '▶ process {"action":"kill","session_id":',
      '▶ process {"action":"list"}',
      'Demo finished: every process has ended.',
    ]) {
      expect(out).toContain(line);
    }
    expect(out).toMatch(/^│ 832040$/m);
    expect(out).not.toContain('\x1b[');
    await waitFor(() => proc.listeners() === 0, 1_000, 'the signal handlers to be removed');
  });

  it('stops the demo on a stop signal and still kills every session', async () => {
    const proc = fakeProcess(root);
    const code = main(['demo'], proc);
    await waitFor(() => proc.out().includes('"mode":"session"'), 20_000, 'the session step');
    proc.stop('SIGINT');
    expect(await code).toBe(1);
    expect(proc.out()).toContain('Demo stopped: stopped. Every session is killed now.');
  });
});

describe('nodeCliProcess', () => {
  it('is the real process, and its hooks come off again', () => {
    const proc = nodeCliProcess();
    expect(proc.stdin).toBe(process.stdin);
    expect(proc.stdout).toBe(process.stdout);
    expect(proc.cwd()).toBe(process.cwd());
    const counts = () =>
      ['SIGINT', 'SIGTERM', 'SIGHUP', 'uncaughtException', 'unhandledRejection'].map((e) =>
        process.listenerCount(e),
      );
    const before = counts();
    const seen: string[] = [];
    const offStop = proc.onStopSignal((signal) => seen.push(signal));
    const offCrash = proc.onCrash(() => seen.push('crash'));
    expect(counts()).toEqual(before.map((n) => n + 1));
    process.emit('SIGHUP', 'SIGHUP');
    expect(seen).toEqual(['SIGHUP']);
    offStop();
    offCrash();
    expect(counts()).toEqual(before);
  });
});
