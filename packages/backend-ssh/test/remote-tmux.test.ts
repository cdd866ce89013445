// Persisted sessions over SSH: a private tmux server on the remote machine (real sshd on
// loopback), driven through the sessions package as a local tmux session is.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRemoteTmuxBackend, type RemoteTmuxHost } from '@procmux/backend-tmux';
import { createMemoryRecoveryStores, createProcessSessions } from '@procmux/sessions';
import {
  assertNoLeakedProcesses,
  processTable,
  rejectsWith,
  requireTool,
  type TestSshd,
  waitFor,
} from '@procmux/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSshTmuxBackend } from '../src/index.js';
import { closeWorld, openWorld, settleSurvivors, startTestSshd } from './helpers.js';

const skip = requireTool('sshd');

describe.skipIf(skip !== undefined)('persisted sessions on a remote tmux server', () => {
  let sshd: TestSshd;
  beforeAll(async () => {
    sshd = await startTestSshd();
  });
  afterAll(async () => {
    await sshd?.stop();
    await assertNoLeakedProcesses();
  });

  it('refuses with ERR_PROCESS_UNSUPPORTED naming the host when it has no tmux', async () => {
    // The remote side as a local sh whose PATH has no tmux: the same probe, a real process.
    const host: RemoteTmuxHost = {
      name: 'me@build-box:22',
      run: async (command) => {
        const r = spawnSync('/bin/sh', ['-c', command], { encoding: 'utf8', env: { PATH: '/nonexistent' } });
        return { stdout: r.stdout, stderr: r.stderr, code: r.status ?? 1 };
      },
      stream: async () => {
        throw new Error('not reached');
      },
      killTree: async () => {},
    };
    const dir = mkdtempSync(join(tmpdir(), 'pm-no-tmux-'));
    try {
      const error = await rejectsWith(
        createRemoteTmuxBackend(host, { dir, environment: (env) => env }),
        'ERR_PROCESS_UNSUPPORTED',
      );
      expect(error.message).toMatch(/tmux was not found on me@build-box:22/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('runs, echoes input, reports exit 7, leaves nothing running', async () => {
    const world = await openWorld(sshd);
    const tmux = await createSshTmuxBackend(world.backend, {
      workspace: world.workspace,
      dir: `${world.workspace}/tmux`,
    });
    const sessions = createProcessSessions({
      cwd: world.workspace,
      sandbox: world.backend.sandbox,
      ptyBackend: world.backend.ptyBackend,
      persistentPtyBackend: tmux,
      ...createMemoryRecoveryStores(),
      ownerId: 'host-a',
      recoveryBackend: tmux,
    });
    try {
      const s = await sessions.start({
        shell: true,
        command:
          'i=1; while [ $i -le 5 ]; do echo "n-$i"; i=$((i+1)); sleep 0.1; done; read x; echo "got-$x"; [[ 1 == 1 ]] && exit 7',
        pty: true,
        lifetime: 'detached',
      });
      expect(s.metadata().shellName).toBe('bash');
      let seen = '';
      while (!seen.includes('n-5')) seen += (await s.poll({ timeoutMs: 2_000 })).stdout;
      await s.input('hello\r');
      const w = await s.wait({ timeoutMs: 15_000 });
      expect(w).toMatchObject({ exitCode: 7 });
      const log = (await s.log()).text;
      expect(log.match(/^n-\d+/gm)).toEqual(['n-1', 'n-2', 'n-3', 'n-4', 'n-5']);
      expect(log).toContain('got-hello');
      expect(await tmux.listSessions()).toEqual([]);
    } finally {
      await sessions.dispose();
      await tmux.dispose();
      await closeWorld(world);
    }
    expect(await settleSurvivors()).toEqual([]);
  });

  it('a second host adopts over its own connection: resize, SIGINT, exit signal and kill reach the remote pane', async () => {
    // Two hosts, each with its own SSH connection, sharing one store; A lets go without ending
    // its sessions (as a crashed host), its leases lapse, B takes them over.
    const stores = createMemoryRecoveryStores();
    const dirOf = mkdtempSync(join(tmpdir(), 'pm-adopt-'));
    const hostOf = async (ownerId: string) => {
      const world = await openWorld(sshd);
      const tmux = await createSshTmuxBackend(world.backend, {
        workspace: world.workspace,
        dir: `${dirOf}/tmux`,
      });
      const sessions = createProcessSessions({
        cwd: world.workspace,
        sandbox: world.backend.sandbox,
        ptyBackend: world.backend.ptyBackend,
        persistentPtyBackend: tmux,
        ...stores,
        ownerId,
        recoveryBackend: tmux,
        recoveryLimits: { leaseTtlMs: 1_000 },
      });
      return { world, tmux, sessions };
    };
    const a = await hostOf('host-a');
    const b = await hostOf('host-b');
    // Processes carrying a marker this worker minted (the sessions' trees on the "remote").
    const remote = () =>
      processTable().filter((p) => p.state !== 'Z' && p.marker?.startsWith(`${process.pid}-`));
    try {
      const python = await a.sessions.start({
        shell: true,
        // An endless loop printing a line every 200 ms, in one line of Python.
        command: `/usr/bin/python3 -u -c '[(print("tick"), __import__("time").sleep(0.2)) for _ in iter(int, 1)]'`,
        pty: true,
        lifetime: 'detached',
      });
      const sized = await a.sessions.start({
        shell: true,
        command: 'stty size; while read -r x; do stty size; done',
        pty: true,
        lifetime: 'detached',
      });
      let seen = '';
      while (!seen.includes('tick')) seen += (await python.poll({ timeoutMs: 2_000 })).stdout;
      // A goes as a crashed host does: its connection ends, the remote workspace stays (the
      // sessions run in it; removing it is the cleanup of the end of the test).
      await a.sessions.dispose();
      await a.tmux.dispose();
      a.world.backend.close();

      await waitFor(
        async () => {
          await b.sessions.recover();
          return b.sessions.list().filter((s) => s.live).length === 2;
        },
        15_000,
        'host B to adopt both sessions once their leases lapsed',
      );
      const p = b.sessions.get(python.id);
      const t = b.sessions.get(sized.id);
      expect([p.metadata().state, t.metadata().state]).toEqual(['running', 'running']);

      // Resize through B reaches the remote pane's terminal before the Enter given after it.
      await t.resize!({ columns: 101, rows: 33 });
      await t.input('again\r');
      let size = '';
      await waitFor(
        async () => {
          size += (await t.poll({ timeoutMs: 500 })).stdout;
          return size.includes('33 101');
        },
        10_000,
        'stty size to report the new size',
      );
      // SIGINT to the adopted python loop: KeyboardInterrupt, and it ends by that signal.
      await p.signal('SIGINT');
      expect(await p.wait({ timeoutMs: 15_000 })).toMatchObject({ exitCode: null, signal: 'SIGINT' });
      expect((await p.log()).text).toContain('KeyboardInterrupt');
      // Tree kill through B: nothing of either session is left there.
      await t.kill();
      await waitFor(() => remote().length === 0, 10_000, 'no remote process of the adopted sessions');
      expect(await b.tmux.listSessions()).toEqual([]);
    } finally {
      await b.sessions.dispose();
      await b.tmux.dispose();
      await closeWorld(b.world);
      // A failed run leaves the adopted sessions in tmux there (released, not killed): end them.
      spawnSync('tmux', ['-S', b.tmux.socket, 'kill-server'], { stdio: 'ignore' });
      rmSync(dirOf, { recursive: true, force: true });
      rmSync(a.world.workspace, { recursive: true, force: true });
    }
    expect(await settleSurvivors()).toEqual([]);
  }, 60_000);
});
