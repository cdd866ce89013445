// `procmux mcp` remembers: the built CLI driven over stdio like a client. A persisted session
// outlives a SIGKILLed server and comes back whole in the next one; a non-persisted one dies
// with it; two servers on one state directory cannot both drive a session; no tmux, no persist.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { RECOVERY_NAMESPACE } from '@procmux/core-types';
import { openSqliteRecoveryStore } from '@procmux/store-sqlite';
import { assertNoLeakedProcesses, processTable, waitFor } from '@procmux/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { pollUntil } from './poll-until.js';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const PRINTER =
  'i=1; while [ $i -le 40 ]; do echo "line-$i"; i=$((i+1)); sleep 0.1; done; read x; echo "got-$x"; exit 7';

interface Server {
  client: Client;
  pid: number;
  stderr: () => string;
}

const servers: Server[] = [];
const dirs: string[] = [];
const serverPids: number[] = [];

function dir(prefix: string): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(d);
  return d;
}

async function serve(root: string, state: string, env?: Record<string, string>): Promise<Server> {
  let stderr = '';
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', '--cwd', root, '--state-dir', state],
    stderr: 'pipe',
    ...(env ? { env } : {}),
  });
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = new Client({ name: 'procmux-persist', version: '1.0.0' });
  await client.connect(transport);
  const server = { client, pid: transport.pid!, stderr: () => stderr };
  servers.push(server);
  serverPids.push(server.pid);
  return server;
}

/** The delivered offset the server's SQLite store holds for session `id`, read as the next server will. */
async function recordedDelivered(state: string, id: string): Promise<number | undefined> {
  const store = openSqliteRecoveryStore({ path: join(state, 'state.sqlite') });
  try {
    const entry = await store.checkpoints.get(RECOVERY_NAMESPACE, id);
    return entry === undefined
      ? undefined
      : (JSON.parse(entry.data) as { deliveredBytes?: number }).deliveredBytes;
  } finally {
    store.close();
  }
}

/** Bytes of the one tmux pane log under `state` (what the pane's program wrote). */
function paneLogBytes(state: string): number {
  const logs = readdirSync(state, { recursive: true, encoding: 'utf8' }).filter((f) =>
    /(^|\/)sessions\/pm-[0-9a-f]{12}\.log$/.test(f),
  );
  if (logs.length !== 1)
    throw new Error(`expected one pane log under ${state}, found ${logs.join(', ') || 'none'}`);
  return statSync(join(state, logs[0]!)).size;
}

async function call(server: Server, name: string, args: Record<string, unknown>) {
  const result = (await server.client.callTool({ name, arguments: args })) as CallToolResult;
  const text = (result.content[0] as { type: 'text'; text: string }).text;
  // biome-ignore lint/suspicious/noExplicitAny: structured result read loosely in a test
  return { text, isError: result.isError === true, data: result._meta?.['procmux/result'] as any };
}

/** Alive and not a zombie (a dead process its parent has not reaped yet is dead). */
function alive(pid: number): boolean {
  return processTable().some((p) => p.pid === pid && p.state !== 'Z');
}

async function sigkill(server: Server): Promise<void> {
  process.kill(server.pid, 'SIGKILL');
  await expect.poll(() => alive(server.pid), { timeout: 10_000 }).toBe(false);
  await server.client.close().catch(() => {});
}

afterEach(async () => {
  for (const server of servers.splice(0)) await server.client.close().catch(() => {});
  for (const d of dirs) {
    try {
      execFileSync('tmux', ['-S', join(d, 'tmux', 'tmux.sock'), 'kill-server'], { stdio: 'ignore' });
    } catch {}
  }
  // Nothing a server marked (its sessions, its tmux server) may outlive the test.
  const marked = () =>
    processTable().filter(
      (p) => p.state !== 'Z' && serverPids.some((pid) => p.marker?.startsWith(`${pid}-`)),
    );
  await expect.poll(() => marked().length, { timeout: 10_000 }).toBe(0);
  serverPids.length = 0;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  await assertNoLeakedProcesses();
});

/** A server on fresh workspace and state dirs, with `command` started as a persisted terminal session. */
async function persistedSession(command: string) {
  const root = dir('pm-root-');
  const state = dir('pm-state-');
  const a = await serve(root, state);
  const started = await call(a, 'exec', { command, mode: 'session', persist: true });
  return { root, state, a, started, id: started.data.session.id as string };
}

const lineCount = (text: string) => text.split('\n').filter((l) => /^line-\d+$/.test(l.trim())).length;

describe.skipIf(process.platform === 'win32')('procmux mcp persistence', () => {
  it('a persisted session outlives a SIGKILLed server: every line once, input, real exit code', async () => {
    const { root, state, a, started, id } = await persistedSession(PRINTER);
    expect(started.isError).toBe(false);
    // The note on a line of its own, not read as part of the command.
    expect(started.text).toMatch(
      /^Started session \S+ \(pid \d+, terminal\): .*\nPersisted: it outlives this server\./m,
    );
    const pid: number = started.data.session.pid;
    const plain = await call(a, 'exec', { command: 'sleep 60', mode: 'session' });
    const plainPid: number = plain.data.session.pid;
    // Killed mid-output: some lines written before the server dies, the rest after.
    await expect
      .poll(
        async () => lineCount((await call(a, 'process', { action: 'log', session_id: id, limit: 200 })).text),
        { timeout: 10_000 },
      )
      .toBeGreaterThanOrEqual(3);
    await sigkill(a);
    expect(alive(pid)).toBe(true);
    // The non-persisted session died with its server (the containment watchdog).
    await expect.poll(() => alive(plainPid), { timeout: 10_000 }).toBe(false);

    const b = await serve(root, state);
    expect(b.stderr()).toMatch(/recovered 1 persisted session/);
    const list = await call(b, 'process', { action: 'list' });
    expect(list.text).toContain(id);
    await expect
      .poll(
        async () => lineCount((await call(b, 'process', { action: 'log', session_id: id, limit: 200 })).text),
        {
          timeout: 20_000,
        },
      )
      .toBe(40);
    await call(b, 'process', { action: 'paste', session_id: id, text: 'hello' });
    await call(b, 'process', { action: 'submit', session_id: id });
    const waited = await call(b, 'process', {
      action: 'wait_for',
      session_id: id,
      exit: true,
      timeout: 20_000,
    });
    expect(waited.text).toMatch(/exited with code 7/);
    const log = (await call(b, 'process', { action: 'log', session_id: id, limit: 200 })).text;
    const lines = log
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => /^line-\d+$/.test(l));
    expect(lines).toEqual(Array.from({ length: 40 }, (_, i) => `line-${i + 1}`));
    expect(log).toContain('got-hello');
  });

  it('a persisted session tmux could not be asked about at startup is looked up again, not lost', async () => {
    const { root, state, a, started, id } = await persistedSession('echo up; read x; echo "got-$x"; exit 5');
    const pid: number = started.data.session.pid;
    await sigkill(a);
    // tmux behind a shim whose pane lookup fails (as a client killed by its time bound under
    // load does) while the flag file exists.
    const shims = dir('pm-shim-');
    const flag = join(shims, 'fail');
    const realTmux = execFileSync('sh', ['-c', 'command -v tmux'], { encoding: 'utf8' }).trim();
    writeFileSync(
      join(shims, 'tmux'),
      `#!/bin/sh\nif [ -e ${flag} ]; then case "$*" in *@procmux_lifetime*) echo 'lost server' >&2; exit 1 ;; esac; fi\nexec ${realTmux} "$@"\n`,
      { mode: 0o755 },
    );
    writeFileSync(flag, '');
    const b = await serve(root, state, {
      ...(process.env as Record<string, string>),
      PATH: `${shims}:${process.env.PATH ?? ''}`,
    });
    expect(b.stderr()).toContain(`could not look up 1 persisted session(s) yet (${id})`);
    expect(b.stderr()).toContain('lost server');
    expect((await call(b, 'process', { action: 'list' })).text).not.toContain(id);
    expect(alive(pid)).toBe(true);

    rmSync(flag);
    await waitFor(
      () => b.stderr().includes(`recovered 1 persisted session(s) on a later try (${id})`),
      20_000,
      'the later look-up',
    );
    expect((await call(b, 'process', { action: 'list' })).text).toMatch(new RegExp(`${id}\\s+running`));
    await call(b, 'process', { action: 'paste', session_id: id, text: 'again' });
    await call(b, 'process', { action: 'submit', session_id: id });
    const after = { action: 'wait_for', session_id: id, exit: true, timeout: 20_000 };
    expect((await call(b, 'process', after)).text).toMatch(/got-again[\s\S]*exited with code 5/);
  });

  it('a recovered terminal session has its screen back: polls go on from what was delivered, input shows', async () => {
    const { root, state, a, started, id } = await persistedSession(
      "echo before-$((6*7)); PS1='pm$ ' exec bash --norc --noprofile -i",
    );
    const seen = await pollUntil(
      () => call(a, 'process', { action: 'poll', session_id: id, timeout: 1_000 }),
      /pm\$/,
      'the prompt',
      a.stderr,
      started.text,
    );
    expect(seen).toContain('before-42');
    // The delivered offset is written within 250 ms of the poll: once the record holds all of
    // the pane's log (the shell waits at its prompt: nothing more comes), the server dies.
    await waitFor(
      async () => (await recordedDelivered(state, id)) === paneLogBytes(state),
      10_000,
      "the record's delivered offset to reach the end of the pane's log",
    );
    await sigkill(a);

    const b = await serve(root, state);
    expect(b.stderr()).toMatch(/recovered 1 persisted session/);
    const list = await call(b, 'process', { action: 'list' });
    expect(list.data.sessions).toMatchObject([{ id, emulated: true, stdioMode: 'pty' }]);
    // Nothing new since the last poll of the dead server: the replay is not delivered twice.
    const first = await call(b, 'process', { action: 'poll', session_id: id, timeout: 500 });
    expect(first.text).not.toContain('before-42');
    await call(b, 'process', { action: 'paste', session_id: id, text: 'echo after-$((7*8))' });
    await call(b, 'process', { action: 'submit', session_id: id });
    const after = await pollUntil(
      () => call(b, 'process', { action: 'poll', session_id: id, timeout: 1_000 }),
      /after-56[\s\S]*pm\$/,
      'the typed line run and the prompt back',
      b.stderr,
    );
    expect(after).not.toContain('before-42');
    // log still has the whole history.
    const log = (await call(b, 'process', { action: 'log', session_id: id, limit: 200 })).text;
    expect(log).toContain('before-42');
    expect(log).toContain('after-56');
    await call(b, 'process', { action: 'kill', session_id: id });
  });

  it('a persisted session that ended while no server ran reports its real exit code', async () => {
    const root = dir('pm-root-');
    const state = dir('pm-state-');
    const a = await serve(root, state);
    // It prints and ends only once the test lets it, after its server is gone (a `sleep 3`
    // before it could end first on a loaded machine).
    const go = join(dir('pm-go-'), 'go');
    const started = await call(a, 'exec', {
      command: `while [ ! -e ${go} ]; do sleep 0.05; done; for i in 1 2 3 4 5; do echo "line-$i"; sleep 0.1; done; exit 5`,
      mode: 'daemon',
      persist: true,
    });
    expect(started.text).toMatch(/runs in a terminal \(tmux\), not on pipes/);
    const id: string = started.data.session.id;
    await sigkill(a);
    writeFileSync(go, '');
    await expect.poll(() => alive(started.data.session.pid), { timeout: 10_000 }).toBe(false);
    const b = await serve(root, state);
    const waited = await call(b, 'process', {
      action: 'wait_for',
      session_id: id,
      exit: true,
      timeout: 10_000,
    });
    expect(waited.text).toMatch(/exited with code 5/);
    expect(lineCount((await call(b, 'process', { action: 'log', session_id: id })).text)).toBe(5);
  });

  it('fencing: a second server on the same state directory gets the lease error', async () => {
    const root = dir('pm-root-');
    const state = dir('pm-state-');
    const a = await serve(root, state);
    const started = await call(a, 'exec', { command: 'sleep 60', mode: 'session', persist: true });
    const id: string = started.data.session.id;
    const b = await serve(root, state);
    expect(b.stderr()).toMatch(/ERR_RECOVERY_OWNERSHIP: 1 held by the live server/);
    const polled = await call(b, 'process', { action: 'poll', session_id: id });
    expect(polled.isError).toBe(true);
    expect((await call(a, 'process', { action: 'poll', session_id: id, timeout: 100 })).isError).toBe(false);
    await call(a, 'process', { action: 'kill', session_id: id });
  });

  it('without tmux, persist: true is an error result that says so', async () => {
    const root = dir('pm-root-');
    const state = dir('pm-state-');
    const server = await serve(root, state, { PATH: '/nonexistent', HOME: state });
    const result = await call(server, 'exec', { command: 'sleep 1', mode: 'session', persist: true });
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(
      /persist: true is not available here: tmux was not found on PATH; install tmux/,
    );
  });

  it('procmux sessions prune ends every persisted session and forgets it', async () => {
    const root = dir('pm-root-');
    const state = dir('pm-state-');
    const a = await serve(root, state);
    const started = await call(a, 'exec', { command: 'sleep 60', mode: 'session', persist: true });
    await sigkill(a);
    const out = execFileSync(
      process.execPath,
      [CLI, 'sessions', 'prune', '--cwd', root, '--state-dir', state],
      {
        encoding: 'utf8',
      },
    );
    expect(out).toMatch(/ended 1 persisted session\(s\) and removed \d+ record\(s\)/);
    await expect.poll(() => alive(started.data.session.pid), { timeout: 10_000 }).toBe(false);
    const b = await serve(root, state);
    expect(b.stderr()).toMatch(/recovered 0 persisted session/);
  });
});
