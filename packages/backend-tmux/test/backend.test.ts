// The backend on real tmux with real programs: exact input, resize, signals, tree kill with
// an escapee, the environment, the attach command, and a person typing through tmux.
import { execFileSync } from 'node:child_process';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createProcessSessions, type ProcessSessions } from '@procmux/sessions';
import { isAlive, processTable } from '@procmux/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { createTmuxBackend, locateTmux, type TmuxBackend } from '../src/index.js';
import { stateDir, teardown } from './helpers.js';

let sessions: ProcessSessions;
let tmux: TmuxBackend;

function setup() {
  tmux = createTmuxBackend({ dir: stateDir() });
  sessions = createProcessSessions({ cwd: process.cwd(), ptyBackend: tmux });
}

afterEach(async () => {
  await sessions.dispose();
  await tmux.killServer();
  expect(await tmux.serverPid()).toBeUndefined();
  await teardown();
});

async function until(s: Awaited<ReturnType<ProcessSessions['start']>>, pattern: RegExp): Promise<string> {
  let seen = '';
  const deadline = Date.now() + 15_000;
  while (!pattern.test(seen) && Date.now() < deadline) seen += (await s.poll({ timeoutMs: 1_000 })).stdout;
  expect(seen).toMatch(pattern);
  return seen;
}

/** A tmux-held `sh` that prints its tree marker, then runs `then`; the marker as printed. */
async function markedSession(then: string) {
  const s = await sessions.start({
    command: 'sh',
    args: ['-c', `echo "m=$PROCMUX_TREE"; ${then}`],
    pty: true,
  });
  const marker = /m=(\S+)/.exec(await until(s, /m=\S+/))?.[1];
  expect(marker).toMatch(/^\d+-/);
  return { s, marker };
}

describe.skipIf(process.platform === 'win32')('tmux backend', () => {
  it('drives python3 -i with exact bytes, resizes, and reports the exit code', async () => {
    setup();
    const s = await sessions.start({ command: 'python3', args: ['-i', '-q'], pty: true });
    expect(s.metadata().backendMetadata).toMatchObject({
      tmux: { attach: expect.stringMatching(/^tmux -S \S+tmux\.sock attach -t pm-[0-9a-f]{12}$/) },
    });
    await until(s, />>>/);
    await s.input('print("é" * 3, 6 * 7)\r');
    await until(s, /ééé 42/);
    await s.resize!({ columns: 100, rows: 30 });
    await s.input('import os; print(os.get_terminal_size())\r');
    await until(s, /columns=100, lines=30/);
    await s.input('import sys; sys.exit(4)\r');
    expect(await s.wait({ timeoutMs: 10_000 })).toMatchObject({ state: 'exited', exitCode: 4 });
  });

  it('an Enter given after a resize is answered at the new size, however slow the resize client is', async () => {
    // tmux behind a wrapper whose resize-window client is slow: it waits until the program
    // has ended, or 500 ms. Input that overtakes it ends the program at the old size.
    const real = locateTmux();
    const dir = stateDir();
    const ended = join(dir, 'ended');
    const wrapper = join(dir, 'slow-resize-tmux');
    writeFileSync(
      wrapper,
      [
        '#!/bin/sh',
        'case " $* " in *" resize-window "*)',
        `  i=0; while [ ! -e ${ended} ] && [ $i -lt 10 ]; do sleep 0.05; i=$((i+1)); done ;;`,
        'esac',
        `exec ${real.path} "$@"`,
        '',
      ].join('\n'),
    );
    chmodSync(wrapper, 0o755);
    tmux = createTmuxBackend({ dir: join(dir, 'tmux'), tmux: { path: wrapper, version: real.version } });
    sessions = createProcessSessions({ cwd: process.cwd(), ptyBackend: tmux });
    const s = await sessions.start({
      command: 'sh',
      args: ['-c', `stty size; read -r x; stty size; : > ${ended}`],
      pty: true,
    });
    await until(s, /40 120/);
    await s.resize!({ columns: 101, rows: 33 });
    await s.input('again\r');
    expect(await s.wait({ timeoutMs: 10_000 })).toMatchObject({ exitCode: 0 });
    expect((await s.log()).text.match(/^\d+ \d+/gm)).toEqual(['40 120', '33 101']);
  });

  it('runs a command string under bash, as a native session does, and says so', async () => {
    setup();
    const s = await sessions.start({
      shell: true,
      command: '[[ 1 == 1 ]] && echo ok; echo {1..3}; exit 7',
      pty: true,
    });
    expect(await s.wait({ timeoutMs: 10_000 })).toMatchObject({ exitCode: 7 });
    expect((await s.output({ cursor: 0 })).data.trim().split(/\r?\n/)).toEqual(['ok', '1 2 3']);
    expect(s.metadata().shellName).toBe('bash');
  });

  it('passes exactly the environment asked for (and the tree marker), no TMUX variables', async () => {
    setup();
    const s = await sessions.start({ command: 'env', args: [], pty: true, env: { ONLY_THIS: 'yes' } });
    expect((await s.wait({ timeoutMs: 10_000 })).exitCode).toBe(0);
    const text = (await s.output({ cursor: 0 })).data;
    expect(text).toMatch(/^ONLY_THIS=yes\r?$/m);
    expect(text).toMatch(/^PROCMUX_TREE=/m);
    expect(text).not.toMatch(/^TMUX/m);
  });

  it('nothing carries a session tree marker once its end is reported', async () => {
    setup();
    const { s, marker } = await markedSession('exit 3');
    expect((await s.wait({ timeoutMs: 10_000 })).exitCode).toBe(3);
    // The pane's reap nudge (layout.ts) lives on for 1.2 s: it must not look like the session.
    expect(processTable().filter((p) => p.state !== 'Z' && p.marker === marker)).toEqual([]);
  });

  it("only the pane's process carries the marker: tmux's later helpers for the session do not", async () => {
    // The pane-died hook (and the kill-session it execs) and the log writer are started by
    // tmux for the session; a hook still running when the end is reported must not look like
    // the session. run-shell gets the same environment the hook does.
    setup();
    const { s, marker } = await markedSession('exec sleep 300');
    const { socket, session } = (
      s.metadata().backendMetadata as { tmux: { socket: string; session: string } }
    ).tmux;
    const envFile = join(stateDir(), 'run-shell.env');
    execFileSync('tmux', ['-S', socket, 'run-shell', '-t', session, `env > ${envFile}`]);
    const hookEnv = readFileSync(envFile, 'utf8');
    expect(hookEnv).toMatch(/^PATH=/m);
    expect(hookEnv).not.toContain('PROCMUX_TREE');
    const writers = processTable().filter(
      (p) => p.command.includes(`cat >> `) && p.command.includes(`${session}.log`),
    );
    expect(writers.length).toBeGreaterThan(0);
    expect(writers.filter((w) => w.marker !== undefined)).toEqual([]);
    // The pane's process (the wrapper shell) and what it started still carry it: a tree kill finds them.
    const marked = processTable().filter((p) => p.marker === marker);
    expect(marked.map((p) => p.command).sort()).toEqual([
      expect.stringMatching(/^\/bin\/sh -c /),
      'sleep 300',
    ]);
    await s.kill();
  });

  it('a signal death is reported as the signal; kill takes a setsid escapee too', async () => {
    setup();
    const s = await sessions.start({ command: 'sh', args: ['-c', 'echo up; sleep 60'], pty: true });
    await until(s, /up/);
    await s.signal('SIGTERM');
    expect(await s.wait({ timeoutMs: 10_000 })).toMatchObject({ exitCode: null, signal: 'SIGTERM' });

    const t = await sessions.start({
      command: 'sh',
      args: ['-c', 'setsid sleep 300 & echo "esc $!"; sleep 300'],
      pty: true,
    });
    const escapee = Number(/esc (\d+)/.exec(await until(t, /esc \d+/))![1]);
    await t.kill();
    expect((await t.wait({ timeoutMs: 10_000 })).state).toBe('killed');
    await expect.poll(() => isAlive(escapee), { timeout: 5_000 }).toBe(false);
  });

  it('what a person types in the tmux session reaches the program like any input', async () => {
    setup();
    const s = await sessions.start({
      command: 'sh',
      args: ['-c', 'read x; echo "person said $x"'],
      pty: true,
    });
    const attach = (s.metadata().backendMetadata as { tmux: { socket: string; session: string } }).tmux;
    execFileSync('tmux', ['-S', attach.socket, 'send-keys', '-t', attach.session, 'hi', 'Enter']);
    await until(s, /person said hi/);
    expect(await s.wait({ timeoutMs: 10_000 })).toMatchObject({ exitCode: 0 });
  });

  it("lifetime 'detached' needs the persistent backend; two starts at once both work", async () => {
    setup();
    const [a, b] = await Promise.all([
      sessions.start({ command: 'echo', args: ['a'], pty: true, lifetime: 'detached' }),
      sessions.start({ command: 'echo', args: ['b'], pty: true }),
    ]);
    expect((await a.wait({ timeoutMs: 10_000 })).exitCode).toBe(0);
    expect((await b.wait({ timeoutMs: 10_000 })).exitCode).toBe(0);
    const native = createProcessSessions({ cwd: process.cwd() });
    await expect(native.start({ command: 'true', pty: true, lifetime: 'detached' })).rejects.toThrow(
      /persistent backend/,
    );
    await native.dispose();
  });
});
