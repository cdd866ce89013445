// killServer() while many sessions print: every pane's log writer is still setting down its
// last bytes (and its end mark) when the server goes. It must neither fail (ENOTEMPTY on the
// sessions directory, seen in the bench) nor leave a process or a session file behind.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createProcessSessions, type ProcessSession } from '@procmux/sessions';
import { afterEach, describe, expect, it } from 'vitest';
import { createTmuxBackend } from '../src/index.js';
import { stateDir, teardown } from './helpers.js';

afterEach(async () => {
  await teardown();
});

// Bursts, not a flat-out flood: 16 of those would starve a shared 2-core machine.
const PRINTER = 'while :; do seq 1 50; sleep 0.05; done';

describe.skipIf(process.platform === 'win32')('killServer', () => {
  it('ends 16 printing sessions, stops the server and leaves an empty sessions directory (3 rounds)', async () => {
    const dir = stateDir();
    for (let round = 0; round < 3; round++) {
      const tmux = createTmuxBackend({ dir });
      const sessions = createProcessSessions({
        cwd: process.cwd(),
        ptyBackend: tmux,
        limits: { maxSessions: 16 },
      });
      const started: ProcessSession[] = [];
      for (let i = 0; i < 16; i++) {
        started.push(
          await sessions.start({ command: 'sh', args: ['-c', PRINTER], pty: true, lifetime: 'detached' }),
        );
      }
      // Every log is growing when the server is killed.
      await expect
        .poll(() => started.every((s) => s.metadata().totalBytes > 0), { timeout: 20_000 })
        .toBe(true);
      await sessions.dispose();
      await tmux.killServer();
      expect(await tmux.serverPid()).toBeUndefined();
      expect(readdirSync(join(dir, 'sessions'))).toEqual([]);
      await tmux.dispose();
    }
  }, 120_000);
});
