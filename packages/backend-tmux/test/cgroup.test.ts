// containment 'auto' on a host that can make cgroups (root here): each pane's process joins a
// cgroup of its own before the program runs, so a daemon that left the tree and cleared its
// environment ends with the session: on kill(), when the pane ends by itself, and when a later
// host re-attached it (also from another cgroup). No cgroup is left behind.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '@procmux/core-types';
import { createProcessSessions, type ProcessSessions } from '@procmux/sessions';
import { hostCgroupLayout, SessionCgroup } from '@procmux/supervisor';
import { leakedCgroups, processTable, procmuxCgroups, removeCgroup, waitFor } from '@procmux/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTmuxBackend, type TmuxBackend } from '../src/index.js';
import { disposeHosts, newHost } from './durable-hosts.js';
import { FIXTURES, sigkill, startHost, stateDir, teardown } from './helpers.js';

let sessions: ProcessSessions | undefined;
let tmux: TmuxBackend | undefined;
const children: number[] = [];

afterEach(async () => {
  await sessions?.dispose();
  await tmux?.killServer();
  sessions = undefined;
  tmux = undefined;
  await disposeHosts();
  await teardown();
  const leaked = leakedCgroups(children.splice(0));
  for (const { dir } of leaked) removeCgroup(dir);
  expect(leaked.map((c) => c.dir)).toEqual([]);
});

const layout = process.platform === 'linux' ? hostCgroupLayout() : undefined;
const cannot = (() => {
  if (layout === undefined) return 'no cgroup hierarchy is visible';
  try {
    void SessionCgroup.create({ layout, id: `probe-${randomBytes(3).toString('hex')}` }).close();
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
})();
if (cannot) console.info(`[procmux] tmux cgroup tests not run: ${cannot}`);

const tag = () => `30${Math.floor(Math.random() * 1e6)}.${Math.floor(Math.random() * 1e6)}`;
const sleeping = (n: string) => processTable().filter((p) => p.state !== 'Z' && p.command === `sleep ${n}`);
const escapee = (n: string, then: string) => `(setsid sh -c 'exec env -i sleep ${n}' &); echo up; ${then}`;

/** Counts the escapees left, kills them (so one failure cannot leak into the next test), logs. */
function countAndClear(what: string, n: string): number {
  const left = sleeping(n);
  for (const { pid } of left) process.kill(pid, 'SIGKILL');
  console.log(`tmux cgroup escapees left after ${what}: ${left.length}`);
  return left.length;
}

/** The pids in a cgroup directory's cgroup.procs ([] once it is gone). */
function members(dir: string): number[] {
  try {
    return readFileSync(join(dir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** A pane that sleeps, detached (no watchdog): a start as a host asks for it. */
function sleeper(): Parameters<TmuxBackend['startPty']>[0] {
  return {
    file: 'sleep',
    args: ['60'],
    cwd: process.cwd(),
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    term: 'xterm-256color',
    columns: 80,
    rows: 24,
    lifetime: 'detached',
    onData: () => {},
  };
}

/** Whether the private tmux server at `socket` still holds a session. */
function hasSessions(socket: string): boolean {
  try {
    execFileSync('tmux', ['-S', socket, 'list-sessions'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** The escapee runs (its double fork done: no longer a child of the pane's shell). */
async function orphaned(n: string): Promise<void> {
  await waitFor(() => sleeping(n).length === 1, 15_000, 'the escapee to run');
}

describe.skipIf(cannot !== undefined)("tmux panes with containment 'auto' where a cgroup can be made", () => {
  it('kill() leaves no escapee that cleared its environment; metadata says cgroup; the cgroup goes', async () => {
    tmux = createTmuxBackend({ dir: stateDir() });
    sessions = createProcessSessions({ cwd: process.cwd(), ptyBackend: tmux });
    const n = tag();
    const s = await sessions.start({ command: escapee(n, 'sleep 60'), shell: true, pty: true });
    expect(s.metadata().containment).toBe('cgroup');
    const mine = procmuxCgroups().filter((c) => c.dir.includes(`procmux-${process.pid}-pm-`));
    expect(mine.length).toBeGreaterThan(0);
    await orphaned(n);
    await s.kill();
    expect(countAndClear('kill()', n)).toBe(0);
    expect(procmuxCgroups().filter((c) => c.hostPid === process.pid)).toEqual([]);
  });

  it('a start is reported only once the pane is in its cgroup, so a host that re-attaches at once finds it there', async () => {
    tmux = createTmuxBackend({ dir: stateDir() });
    const backend = tmux;
    // Twelve at once, straight to the backend: what a host records as started is what
    // startPty resolved to, and a host re-attaching at once reads the cgroup as it is then.
    const started = await Promise.all(
      Array.from({ length: 12 }, async () => {
        const handle = await backend.startPty(sleeper());
        const mine = procmuxCgroups().filter((c) => c.hostPid === process.pid);
        return { handle, joined: mine.some((c) => members(c.dir).includes(handle.pid!)) };
      }),
    );
    expect(started.filter((s) => !s.joined).map((s) => s.handle.pid)).toEqual([]);
    await backend.killServer();
    expect(procmuxCgroups().filter((c) => c.hostPid === process.pid)).toEqual([]);
  });

  // A pane killed while a cgroup inside its own (someone else's doing) keeps that from being
  // removed; told is how the test knows the warning went out. The blocker is removed after.
  async function killPaneLeavingCgroup(logger: Logger, told: () => boolean): Promise<string> {
    tmux = createTmuxBackend({ dir: stateDir(), logger });
    const handle = await tmux.startPty(sleeper());
    const dir = procmuxCgroups().find(
      (c) => c.hostPid === process.pid && members(c.dir).includes(handle.pid!),
    )!.dir;
    const blocker = join(dir, 'blocker');
    mkdirSync(blocker);
    try {
      await handle.kill();
      await handle.wait();
      await waitFor(told, 20_000, 'the warning');
      return dir;
    } finally {
      rmdirSync(blocker);
      removeCgroup(dir);
    }
  }

  it('a cgroup it cannot remove is told to its logger, never dropped', async () => {
    const warnings: { message: string; fields: Readonly<Record<string, unknown>> | undefined }[] = [];
    const dir = await killPaneLeavingCgroup(
      { warn: (message, fields) => warnings.push({ message, fields }) },
      () => warnings.length > 0,
    );
    expect(warnings).toEqual([
      {
        message: expect.stringContaining('could not be emptied and removed'),
        fields: { session: expect.any(String), error: expect.stringContaining(dir) },
      },
    ]);
  });

  it('a logger that throws on that warning neither stops the pane from ending nor loses the warning', async () => {
    const consoleWarn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const dir = await killPaneLeavingCgroup(
        {
          warn: () => {
            throw new Error('the log sink is full');
          },
        },
        () => consoleWarn.mock.calls.length > 0,
      );
      expect(consoleWarn.mock.calls).toEqual([
        [
          expect.stringContaining('could not be emptied and removed'),
          expect.objectContaining({
            error: expect.stringContaining(dir),
            loggerThrew: 'the log sink is full',
          }),
        ],
      ]);
    } finally {
      consoleWarn.mockRestore();
    }
  });

  it('a pane that ends by itself takes what it left in its cgroup with it', async () => {
    tmux = createTmuxBackend({ dir: stateDir() });
    sessions = createProcessSessions({ cwd: process.cwd(), ptyBackend: tmux });
    const n = tag();
    const s = await sessions.start({ command: escapee(n, 'sleep 1; exit 4'), shell: true, pty: true });
    await orphaned(n);
    expect(await s.wait({ timeoutMs: 15_000 })).toMatchObject({ state: 'exited', exitCode: 4 });
    expect(countAndClear('the pane ended', n)).toBe(0);
    expect(procmuxCgroups().filter((c) => c.hostPid === process.pid)).toEqual([]);
  });

  it('a host that re-attached the pane after a SIGKILL reports cgroup, and its kill() leaves 0', async () => {
    const dir = stateDir();
    const n = tag();
    const { child, first } = await startHost<{ id: string; pid: number }>('host.mjs', [
      dir,
      escapee(n, 'sleep 60'),
    ]);
    children.push(child.pid!);
    await orphaned(n);
    await sigkill(child);
    const { sessions: adopting } = newHost(dir);
    const report = await adopting.recover();
    expect(report.outcomes).toMatchObject([{ id: first.id, outcome: 'reattached' }]);
    const session = adopting.get(first.id);
    expect(session.metadata().containment).toBe('cgroup');
    await session.kill();
    expect(countAndClear('recovery + kill()', n)).toBe(0);
    expect(procmuxCgroups().filter((c) => c.hostPid === child.pid)).toEqual([]);
  });

  it('a detached pane that ends with no host there leaves no escapee and no cgroup (the pane-died hook)', async () => {
    const dir = stateDir();
    const n = tag();
    const go = join(dir, 'go');
    const { child } = await startHost<{ id: string; pid: number }>('host.mjs', [
      dir,
      escapee(n, `until [ -e ${go} ]; do sleep 0.05; done; exit 3`),
    ]);
    children.push(child.pid!);
    await orphaned(n);
    await sigkill(child);
    writeFileSync(go, '');
    // The hook ends the cgroup, then the tmux session: once the session is gone, both are done.
    await waitFor(() => !hasSessions(join(dir, 'tmux', 'tmux.sock')), 15_000, 'the pane-died hook');
    expect(procmuxCgroups().filter((c) => c.hostPid === child.pid)).toEqual([]);
    expect(countAndClear('a detached pane ended with no host', n)).toBe(0);
  });

  it("a 'host' pane's escapee ends within 3 s of its host's SIGKILL (the watchdog, the pane-died hook)", async () => {
    const dir = stateDir();
    const n = tag();
    const { child } = await startHost<{ id: string; pid: number }>('host.mjs', [
      dir,
      escapee(n, 'sleep 60'),
      'host',
    ]);
    children.push(child.pid!);
    await orphaned(n);
    await sigkill(child);
    await expect.poll(() => sleeping(n).length, { timeout: 3_000, interval: 50 }).toBe(0);
    await waitFor(
      () => procmuxCgroups().filter((c) => c.hostPid === child.pid).length === 0,
      15_000,
      'the pane cgroup to be removed',
    );
    expect(countAndClear("a 'host' pane's host SIGKILLed", n)).toBe(0);
  });

  it('a re-attaching host in another cgroup still ends and removes the cgroup made for that pane', async () => {
    const dir = stateDir();
    const n = tag();
    const { child, first } = await startHost<{ id: string; pid: number }>('host.mjs', [
      dir,
      escapee(n, 'sleep 60'),
    ]);
    children.push(child.pid!);
    await orphaned(n);
    await sigkill(child);
    // The recovering host runs in a cgroup of its own, a sibling of the pane's.
    const elsewhere = SessionCgroup.create({
      layout: layout!,
      id: `other-${randomBytes(3).toString('hex')}`,
    });
    try {
      const enter = elsewhere.procsFiles.map((f) => `echo $$ > ${f}`).join('; ');
      const host = spawn(
        'sh',
        ['-c', `${enter}; exec "$0" "$@"`, process.execPath, join(FIXTURES, 'recover-kill.mjs'), dir],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      children.push(host.pid!);
      let out = '';
      host.stdout.on('data', (d: Buffer) => (out += d.toString()));
      const code = await new Promise<number | null>((resolve) => host.once('exit', resolve));
      expect(`${code} ${out}`).toBe(`0 ${out}`);
      const lines = out
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, string>);
      expect(lines).toEqual([
        { cgroup: expect.stringMatching(/\/procmux-\d+-other-[0-9a-f]+$/) },
        { id: first.id, containment: 'cgroup' },
        { id: first.id, state: 'killed' },
      ]);
      expect(countAndClear('recovery from another cgroup + kill()', n)).toBe(0);
      expect(procmuxCgroups().filter((c) => c.hostPid === child.pid)).toEqual([]);
    } finally {
      await elsewhere.close();
    }
  });
});
