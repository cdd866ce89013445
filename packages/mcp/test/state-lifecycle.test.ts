// Where `procmux mcp` keeps state, and for how long: a server whose sessions all end with it
// leaves no state dir; a persisted session keeps exactly one, which `procmux sessions prune
// --gone` removes once its workspace is gone. HOME and XDG_STATE_HOME point at a temp dir.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { assertNoLeakedProcesses, processTable } from '@procmux/test-utils';
import { afterEach, describe, expect, it } from 'vitest';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const dirs: string[] = [];

function dir(prefix: string): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(d);
  return d;
}

function alive(pid: number): boolean {
  return processTable().some((p) => p.pid === pid && p.state !== 'Z');
}

function stateEnv(home: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
  return { ...env, HOME: home, XDG_STATE_HOME: join(home, 'state') };
}

/** Starts `procmux mcp --cwd workspace`, runs `calls`, closes the client and waits for the exit. */
async function runServer(
  workspace: string,
  env: Record<string, string>,
  calls: (call: (name: string, args: Record<string, unknown>) => Promise<Called>) => Promise<void>,
): Promise<void> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', '--cwd', workspace],
    env,
    stderr: 'ignore',
  });
  const client = new Client({ name: 'procmux-state', version: '1.0.0' });
  await client.connect(transport);
  const pid = transport.pid!;
  try {
    await calls(async (name, args) => {
      const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
      expect(result.isError).not.toBe(true);
      const text = (result.content[0] as { type: 'text'; text: string }).text;
      return {
        text,
        pid: (result._meta?.['procmux/result'] as { session?: { pid?: number } })?.session?.pid,
      };
    });
  } finally {
    await client.close();
    await expect.poll(() => alive(pid), { timeout: 15_000 }).toBe(false);
  }
}

interface Called {
  text: string;
  /** The session's pid, when the result names a session. */
  pid: number | undefined;
}

function stateDirs(home: string): string[] {
  const root = join(home, 'state', 'procmux');
  return existsSync(root) ? readdirSync(root) : [];
}

afterEach(async () => {
  for (const d of dirs.splice(0)) {
    for (const name of stateDirs(d)) {
      try {
        execFileSync('tmux', ['-S', join(d, 'state', 'procmux', name, 'tmux', 'tmux.sock'), 'kill-server'], {
          stdio: 'ignore',
        });
      } catch {}
    }
    rmSync(d, { recursive: true, force: true });
  }
  await assertNoLeakedProcesses();
});

describe.skipIf(process.platform === 'win32')('state dirs of procmux mcp', () => {
  it('20 servers on new workspaces running one-shot commands leave no state dir', async () => {
    const home = dir('pm-home-');
    const env = stateEnv(home);
    for (let i = 0; i < 20; i++) {
      const workspace = dir('pm-ws-');
      await runServer(workspace, env, async (call) => {
        expect((await call('exec', { command: `echo run-${i}` })).text).toContain(`run-${i}`);
      });
    }
    expect(stateDirs(home)).toEqual([]);
  }, 120_000);

  it('a persisted session leaves exactly one, which prune --gone removes once the workspace is gone', async () => {
    const home = dir('pm-home-');
    const env = stateEnv(home);
    const workspace = dir('pm-ws-');
    const other = dir('pm-ws-');
    let pid: number | undefined;
    await runServer(workspace, env, async (call) => {
      const started = await call('exec', {
        command: 'sleep 2; echo persisted-done',
        mode: 'session',
        persist: true,
      });
      expect(started.text).toMatch(/Persisted: it outlives this server\./);
      pid = started.pid;
    });
    expect(pid).toBeGreaterThan(0);
    await runServer(other, env, async (call) => {
      expect((await call('exec', { command: 'echo other' })).text).toContain('other');
    });
    const [only, ...rest] = stateDirs(home);
    expect(rest).toEqual([]);
    // The session ends on its own; its dir stays until the workspace goes and prune runs.
    await expect.poll(() => alive(pid!), { timeout: 15_000 }).toBe(false);
    const prune = () =>
      execFileSync(process.execPath, [CLI, 'sessions', 'prune', '--gone'], { env, encoding: 'utf8' });
    const kept = prune();
    expect(kept).toContain('removed 0 state dir(s)');
    expect(kept).toContain('kept 1 whose workspace exists');
    expect(stateDirs(home)).toEqual([only]);
    rmSync(workspace, { recursive: true, force: true });
    const removed = prune();
    expect(removed).toContain(
      `removed ${join(home, 'state', 'procmux', only!)} (workspace ${workspace} no longer exists`,
    );
    expect(removed).toContain('removed 1 state dir(s)');
    expect(stateDirs(home)).toEqual([]);
  }, 120_000);
});
