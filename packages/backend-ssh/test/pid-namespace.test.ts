// containment: 'pid-namespace' on the remote host (forced here: this root sshd could make a
// cgroup): the SSH wrapper's program and a remote tmux pane's run in a pid namespace of their
// own, so the escapee of issue 28 dies with them; exit codes and signals stay the program's.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemoryRecoveryStores } from '@procmux/sessions';
import {
  assertNoLeakedProcesses,
  leakedCgroups,
  requireTool,
  type TestSshd,
  waitFor,
} from '@procmux/test-utils';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  closeTmuxHost,
  closeWorld,
  openTmuxHost,
  openWorld,
  parentOf,
  type SshWorld,
  settleSurvivors,
  sleepers,
  startTestSshd,
} from './helpers.js';

const skip = requireTool('sshd') ?? requireTool('tmux');
const SLEEP = '301.7';
const ESCAPEE = `(setsid sh -c 'exec env -i sleep ${SLEEP}' &); sleep 60`;

const escapees = () => sleepers(SLEEP);
// The wrapper's private directories for the waiter's status (marker: this host's pid first).
const statusDirs = () =>
  readdirSync(tmpdir()).filter((name) => name.startsWith(`procmux-pidns-${process.pid}-ssh-`));

describe.skipIf(skip !== undefined || process.platform !== 'linux')(
  'a pid namespace on the remote host',
  () => {
    let sshd: TestSshd;
    let world: SshWorld | undefined;
    beforeAll(async () => {
      sshd = await startTestSshd();
    });
    afterEach(async () => {
      await closeWorld(world);
      world = undefined;
      const left = escapees();
      for (const pid of left) process.kill(pid, 'SIGKILL');
      expect({ left, cgroups: leakedCgroups() }).toEqual({ left: [], cgroups: [] });
    });
    afterAll(async () => {
      await sshd?.stop();
      expect(await settleSurvivors()).toEqual([]);
      await assertNoLeakedProcesses();
    });

    const open = () => openWorld(sshd, {}, { containment: 'pid-namespace' });

    it('kill() ends an escapee the marker cannot find (pipes and a terminal)', async () => {
      world = await open();
      for (const pty of [false, true]) {
        const s = await world.sessions.start({ shell: true, command: ESCAPEE, pty });
        expect(s.metadata().containment).toBe('pid-namespace');
        await waitFor(() => escapees().length === 1, 10_000, 'the escapee to be up');
        await s.kill();
        // The namespace's init dies with the waiter the kill ended; the kernel then ends the rest.
        await waitFor(() => escapees().length === 0, 5_000, 'the escapee to end with its namespace');
        await s.wait({ timeoutMs: 10_000 });
        expect(statusDirs()).toEqual([]);
      }
    });

    it('a lost connection (sshd killed) ends the escapee', async () => {
      world = await open();
      const s = await world.sessions.start({ shell: true, command: ESCAPEE });
      expect(s.metadata().containment).toBe('pid-namespace');
      await waitFor(() => escapees().length === 1, 10_000, 'the escapee to be up');
      expect(statusDirs()).toHaveLength(1);
      process.kill(parentOf(s.pid!), 'SIGKILL');
      await waitFor(() => s.metadata().state === 'unknown', 10_000, 'the session to become unknown');
      // The remote monitor ticks once a second: it sees its sshd gone and kills the tree, and
      // removes the waiter's status directory no host will read.
      await waitFor(() => escapees().length === 0, 10_000, 'the escapee to end with its namespace');
      await waitFor(() => statusDirs().length === 0, 5_000, 'the monitor to remove the status directory');
    });

    it('exit codes and signals stay exact: exit 7, a kill, SIGINT to a trap', async () => {
      world = await open();
      const seven = await world.sessions.start({ shell: true, command: 'exit 7' });
      expect(seven.metadata().containment).toBe('pid-namespace');
      expect(await seven.wait({ timeoutMs: 10_000 })).toMatchObject({ exitCode: 7, signal: null });
      const signalled = await world.sessions.start({ shell: true, command: 'kill -USR1 $$' });
      expect(await signalled.wait({ timeoutMs: 10_000 })).toMatchObject({
        exitCode: null,
        signal: 'SIGUSR1',
      });
      // The program gets the signal, not the namespace's waiter (which blocks INT and TERM).
      const trapped = await world.sessions.start({
        shell: true,
        command: "trap 'echo got-int; exit 9' INT; echo ready; while :; do sleep 0.1; done",
      });
      let seen = '';
      while (!seen.includes('ready')) seen += (await trapped.poll({ timeoutMs: 2_000 })).stdout;
      await trapped.signal('SIGINT');
      expect(await trapped.wait({ timeoutMs: 10_000 })).toMatchObject({ exitCode: 9 });
      expect((await trapped.log()).text).toContain('got-int');
      // kill() reports the same end as without a namespace.
      const killed = await world.sessions.start({ shell: true, command: 'sleep 60' });
      const plain = await openWorld(sshd, {}, { containment: 'marker' });
      try {
        const reference = await plain.sessions.start({ shell: true, command: 'sleep 60' });
        expect(reference.metadata().containment).toBe('marker');
        const [a, b] = [await killed.kill(), await reference.kill()];
        expect(a).toEqual(b);
      } finally {
        await closeWorld(plain);
      }
    });

    it("the wrapper reports the program's own end: SIGKILL and SIGTERM from outside, exit 1, 130, 137", async () => {
      world = await open();
      const ends = async (command: string) => {
        const s = await world!.sessions.start({ shell: true, command });
        expect(s.metadata().containment).toBe('pid-namespace');
        return s.wait({ timeoutMs: 10_000 });
      };
      expect(await ends('exit 1')).toMatchObject({ exitCode: 1, signal: null });
      expect(await ends('exit 130')).toMatchObject({ exitCode: 130, signal: null });
      expect(await ends('exit 137')).toMatchObject({ exitCode: 137, signal: null });
      // Killed from outside the session (as the OOM killer does): util-linux 2.38's unshare
      // cannot re-raise SIGKILL and exits 1; the waiter's status file tells it apart.
      for (const [signal, seconds] of [
        ['SIGKILL', '62.31'],
        ['SIGTERM', '62.32'],
      ] as const) {
        for (const pty of [false, true]) {
          const s = await world.sessions.start({ shell: true, command: `sleep ${seconds}`, pty });
          await waitFor(() => sleepers(seconds).length === 1, 10_000, 'the program to run');
          process.kill(sleepers(seconds)[0]!, signal);
          expect({ pty, end: await s.wait({ timeoutMs: 10_000 }) }).toMatchObject({
            pty,
            end: { exitCode: null, signal },
          });
        }
      }
      expect(statusDirs()).toEqual([]);
    });

    it('a remote tmux pane: kill() leaves no escapee, exit 7 is 7, a SIGKILLed program is SIGKILL', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'pm-rns-'));
      const {
        tmux,
        sessions,
        world: own,
      } = await openTmuxHost(sshd, `${dir}/tmux`, {
        ownerId: 'host-a',
        ssh: { containment: 'pid-namespace' },
      });
      try {
        const s = await sessions.start({ shell: true, command: ESCAPEE, pty: true, lifetime: 'detached' });
        expect(s.metadata().containment).toBe('pid-namespace');
        await waitFor(() => escapees().length === 1, 10_000, 'the escapee to be up');
        await s.kill();
        await waitFor(() => escapees().length === 0, 5_000, 'the escapee to end with its namespace');
        const seven = await sessions.start({
          shell: true,
          command: 'exit 7',
          pty: true,
          lifetime: 'detached',
        });
        expect(await seven.wait({ timeoutMs: 15_000 })).toMatchObject({ exitCode: 7 });
        // The program SIGKILLed from outside: SIGKILL, not unshare's exit 1 (the waiter's status file).
        const killed = await sessions.start({
          shell: true,
          command: 'sleep 61.7',
          pty: true,
          lifetime: 'detached',
        });
        await waitFor(() => sleepers('61.7').length === 1, 10_000, 'the program to run');
        process.kill(sleepers('61.7')[0]!, 'SIGKILL');
        expect(await killed.wait({ timeoutMs: 15_000 })).toMatchObject({ exitCode: null, signal: 'SIGKILL' });
      } finally {
        await closeTmuxHost({ tmux, sessions, world: own });
        spawnSync('tmux', ['-S', `${dir}/tmux/tmux.sock`, 'kill-server'], { stdio: 'ignore' });
        rmSync(dir, { recursive: true, force: true });
      }
    });
    it('a host that adopts a pid-namespace pane reports it and kill() through it leaves 0', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'pm-rns-'));
      const stores = createMemoryRecoveryStores();
      const a = await openTmuxHost(sshd, `${dir}/tmux`, {
        ownerId: 'host-a',
        stores,
        leaseTtlMs: 1_000,
        ssh: { containment: 'pid-namespace' },
      });
      // B asks for nothing in particular ('auto'): it reports what the pane really has.
      const b = await openTmuxHost(sshd, `${dir}/tmux`, { ownerId: 'host-b', stores, leaseTtlMs: 1_000 });
      try {
        const s = await a.sessions.start({
          shell: true,
          command: ESCAPEE,
          pty: true,
          lifetime: 'detached',
        });
        expect(s.metadata().containment).toBe('pid-namespace');
        await waitFor(() => escapees().length === 1, 10_000, 'the escapee to be up');
        await closeTmuxHost(a);
        await waitFor(
          async () => {
            await b.sessions.recover();
            return b.sessions.list().find((x) => x.id === s.id)?.state === 'running';
          },
          15_000,
          'host B to adopt the session once its lease lapsed',
        );
        const adopted = b.sessions.get(s.id);
        expect(adopted.metadata().containment).toBe('pid-namespace');
        await adopted.kill();
        await waitFor(() => escapees().length === 0, 5_000, 'the escapee to end with its namespace');
      } finally {
        await closeTmuxHost(b);
        spawnSync('tmux', ['-S', `${dir}/tmux/tmux.sock`, 'kill-server'], { stdio: 'ignore' });
        rmSync(dir, { recursive: true, force: true });
      }
    });
  },
);
