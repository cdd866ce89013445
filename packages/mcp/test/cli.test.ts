// The built CLI as a user runs it: help, version, usage errors, signals, and the demo.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { assertNoLeakedProcesses, descendantsOf, isAlive, trackPid, waitFor } from '@procmux/test-utils';
import { afterAll, describe, expect, it } from 'vitest';
import { packageVersion } from '../src/index.js';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

afterAll(async () => {
  await assertNoLeakedProcesses();
});

function run(args: string[]) {
  return spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 60_000 });
}

describe('procmux CLI', () => {
  it('starts with a node shebang', async () => {
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(CLI, 'utf8').split('\n')[0]).toBe('#!/usr/bin/env node');
  });

  it('prints help and the version', () => {
    const help = run(['--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('Usage:\n  procmux mcp');
    const version = run(['--version']);
    expect(version.stdout).toBe(`${packageVersion()}\n`);
  });

  it('exits 2 on a usage error', () => {
    const r = run(['mcp', '--max-sessions', 'lots']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--max-sessions must be an integer from 1 to 32 (got "lots")');
  });

  it('kills every session and exits 0 on SIGTERM', async () => {
    const root = mkdtempSync(join(tmpdir(), 'procmux-cli-'));
    const child = spawn(process.execPath, [CLI, 'mcp', '--cwd', root], { stdio: ['pipe', 'pipe', 'pipe'] });
    trackPid(child.pid);
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'exec', arguments: { command: 'sleep 60', mode: 'daemon' } },
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    await waitFor(() => stdout.includes('"id":2'), 20_000, 'the exec result');
    const sleepers = descendantsOf(child.pid!).map((p) => p.pid);
    expect(sleepers.length).toBeGreaterThan(0);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(stderr).toContain('procmux mcp: got SIGTERM; killing every session');
    await waitFor(() => sleepers.every((pid) => !isAlive(pid)), 10_000, 'the sessions to die');
    rmSync(root, { recursive: true, force: true });
  });

  it('runs procmux demo to the end: exit 0, the steps shown, no process left', async () => {
    const child = spawn(process.execPath, [CLI, 'demo'], { stdio: ['ignore', 'pipe', 'pipe'] });
    trackPid(child.pid);
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    expect(code, out).toBe(0);
    for (const expected of [
      /^│ hello from procmux$/m,
      /^│ 832040$/m,
      /^│ KeyboardInterrupt$/m,
      /^│ still here: 55$/m,
      /^│ Serving HTTP on 127\.0\.0\.1 port \d+/m,
      /^│ status 200$/m,
      /^│ Process killed by SIG[A-Z]+\.$/m,
      /^│ 4 sessions:$/m,
      /^Demo finished: every process has ended\.$/m,
    ]) {
      expect(out).toMatch(expected);
    }
    expect(out).not.toMatch(/^│ - \S+ {2}running/m);
  });
});
