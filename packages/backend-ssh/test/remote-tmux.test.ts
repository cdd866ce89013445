// Persisted sessions over SSH: a private tmux server on the remote machine (real sshd on
// loopback), driven through the sessions package as a local tmux session is.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRemoteTmuxBackend, type RemoteTmuxHost } from '@procmux/backend-tmux';
import { createMemoryRecoveryStores, createProcessSessions } from '@procmux/sessions';
import { assertNoLeakedProcesses, rejectsWith, requireTool, type TestSshd } from '@procmux/test-utils';
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
});
