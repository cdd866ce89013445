// Where `procmux mcp` keeps state, and for how long: a server that persists nothing makes no
// state dir, even when SIGKILLed; a persisted session makes exactly one, which `procmux sessions
// prune` removes once the session ended (and `prune --gone` once its workspace is gone); two
// servers on one workspace keep their lock semantics when the dir appears late. HOME and
// XDG_STATE_HOME point at a temp dir.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

interface Server {
  pid: number;
  stderr(): string;
  call(name: string, args: Record<string, unknown>): Promise<Called>;
  /** Closes the client (the server then exits on its own) and waits until it is gone. */
  close(): Promise<void>;
  /** SIGKILLs the server: no close(), no cleanup of its own. */
  kill(): Promise<void>;
}

const servers: Server[] = [];

/** Starts `procmux mcp --cwd workspace` (state under HOME of `env`) as a client would. */
async function startServer(workspace: string, env: Record<string, string>): Promise<Server> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', '--cwd', workspace],
    env,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = new Client({ name: 'procmux-state', version: '1.0.0' });
  await client.connect(transport);
  const pid = transport.pid!;
  const server: Server = {
    pid,
    stderr: () => stderr,
    async call(name, args) {
      const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
      const text = (result.content[0] as { type: 'text'; text: string }).text;
      expect(result.isError, text).not.toBe(true);
      const session = (result.structuredContent as { session?: { id?: string; pid?: number } }).session;
      return { text, id: session?.id, pid: session?.pid };
    },
    async close() {
      await client.close();
      await expect.poll(() => alive(pid), { timeout: 15_000 }).toBe(false);
    },
    async kill() {
      process.kill(pid, 'SIGKILL');
      await expect.poll(() => alive(pid), { timeout: 15_000 }).toBe(false);
      await client.close().catch(() => {});
    },
  };
  servers.push(server);
  return server;
}

interface Called {
  text: string;
  /** The session's id and pid, when the result names a session. */
  id: string | undefined;
  pid: number | undefined;
}

function stateDirs(home: string): string[] {
  const root = join(home, 'state', 'procmux');
  return existsSync(root) ? readdirSync(root) : [];
}

afterEach(async () => {
  for (const server of servers.splice(0)) await server.kill().catch(() => {});
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
  it('20 servers on new workspaces running one-shot commands, every fourth SIGKILLed, leave no state dir', async () => {
    const home = dir('pm-home-');
    const env = stateEnv(home);
    for (let i = 0; i < 20; i++) {
      const server = await startServer(dir('pm-ws-'), env);
      expect((await server.call('exec', { command: `echo run-${i}` })).text).toContain(`run-${i}`);
      // A session still running when the server dies, too.
      const daemon = await server.call('exec', { command: 'sleep 60', mode: 'daemon' });
      if (i % 4 === 3) await server.kill();
      else await server.close();
      await expect.poll(() => alive(daemon.pid!), { timeout: 15_000 }).toBe(false);
      expect(stateDirs(home), `after server ${i}`).toEqual([]);
    }
  }, 180_000);

  it('a persisted session makes exactly one state dir, which prune removes once the session ended', async () => {
    const home = dir('pm-home-');
    const env = stateEnv(home);
    const workspace = dir('pm-ws-');
    const server = await startServer(workspace, env);
    await server.call('exec', { command: 'echo before' });
    expect(stateDirs(home)).toEqual([]);
    const started = await server.call('exec', {
      command: 'sleep 1; echo persisted-done',
      mode: 'session',
      persist: true,
    });
    expect(started.text).toMatch(/Persisted: it outlives this server\./);
    const [only, ...rest] = stateDirs(home);
    expect(rest).toEqual([]);
    expect(readFileSync(join(home, 'state', 'procmux', only!, 'workspace'), 'utf8').trim()).toBe(workspace);
    await server.kill();
    await expect.poll(() => alive(started.pid!), { timeout: 15_000 }).toBe(false);
    expect(stateDirs(home)).toEqual([only]);
    const pruned = execFileSync(process.execPath, [CLI, 'sessions', 'prune', '--cwd', workspace], {
      env,
      encoding: 'utf8',
    });
    expect(pruned).toMatch(
      /ended \d+ persisted session\(s\) and removed 1 record\(s\) in .* \(state dir removed\)/,
    );
    expect(stateDirs(home)).toEqual([]);
    const again = execFileSync(process.execPath, [CLI, 'sessions', 'prune', '--cwd', workspace], {
      env,
      encoding: 'utf8',
    });
    expect(again).toContain('nothing to prune');
    expect(stateDirs(home)).toEqual([]);
  }, 120_000);

  it('a persisted session leaves exactly one, which prune --gone removes once the workspace is gone', async () => {
    const home = dir('pm-home-');
    const env = stateEnv(home);
    const workspace = dir('pm-ws-');
    const other = dir('pm-ws-');
    // The session runs until the test lets it end: it must outlive the first server (a session
    // that ended before its server closed leaves no dir, rightly: under load `sleep 2` did).
    const go = join(dir('pm-go-'), 'go');
    const first = await startServer(workspace, env);
    const started = await first.call('exec', {
      command: `while [ ! -e ${go} ]; do sleep 0.05; done; echo persisted-done`,
      mode: 'session',
      persist: true,
    });
    await first.close();
    const second = await startServer(other, env);
    expect((await second.call('exec', { command: 'echo other' })).text).toContain('other');
    await second.close();
    const [only, ...rest] = stateDirs(home);
    expect(only).toBeDefined();
    expect(rest).toEqual([]);
    // The session ends on its own; its dir stays until the workspace goes and prune runs.
    writeFileSync(go, '');
    await expect.poll(() => alive(started.pid!), { timeout: 15_000 }).toBe(false);
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

  it("two servers that made the dir late: the second writes under an id of its own, the first one's successor takes its sessions back at once", async () => {
    const home = dir('pm-home-');
    const env = stateEnv(home);
    const workspace = dir('pm-ws-');
    const a = await startServer(workspace, env);
    const b = await startServer(workspace, env);
    expect(stateDirs(home)).toEqual([]);
    const sa = await a.call('exec', { command: 'sleep 60', mode: 'session', persist: true });
    const sb = await b.call('exec', { command: 'sleep 60', mode: 'session', persist: true });
    expect(stateDirs(home)).toHaveLength(1);
    await a.kill();
    // The next server holds the lock as the first did: a's session is its own again, b's is
    // still b's (b lives), so it is refused, not taken.
    const c = await startServer(workspace, env);
    await expect.poll(() => c.stderr(), { timeout: 15_000 }).toMatch(/recovered \d+ persisted session/);
    expect(c.stderr()).toContain(`recovered 1 persisted session(s) (${sa.id})`);
    expect(c.stderr()).toMatch(new RegExp(`ERR_RECOVERY_OWNERSHIP: 1 held by .*\\(${sb.id}\\)`));
    await c.call('process', { action: 'kill', session_id: sa.id });
    await b.call('process', { action: 'kill', session_id: sb.id });
    await c.close();
    await b.close();
    await expect.poll(() => alive(sa.pid!) || alive(sb.pid!), { timeout: 15_000 }).toBe(false);
    // Nothing outlived them: the dir is gone with them.
    expect(stateDirs(home)).toEqual([]);
  }, 120_000);
});
