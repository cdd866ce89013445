// A registry disposed while its detached session runs on, in a process that goes on (a host
// that restarts its registry, or a second host in the same process): its handle must stop
// following the pane, else it reads the end itself and clears the session's files, and the
// host that adopts the session never learns how it ended.
import { readdirSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { createProcessSessions } from '@procmux/sessions';
import { openSqliteRecoveryStore } from '@procmux/store-sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { createTmuxBackend } from '../src/index.js';
import { alive, stateDir, teardown } from './helpers.js';

const cleanups: (() => Promise<unknown> | unknown)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await teardown();
});

function host(dir: string, ownerId: string) {
  const store = openSqliteRecoveryStore({ path: join(dir, 'state.sqlite') });
  const tmux = createTmuxBackend({ dir: join(dir, 'tmux') });
  const sessions = createProcessSessions({
    cwd: process.cwd(),
    ptyBackend: tmux,
    recoveryBackend: tmux,
    ownerId,
    checkpoints: store.checkpoints,
    leases: store.leases,
    recoveryLimits: { leaseTtlMs: 1_000 },
  });
  cleanups.push(
    () => store.close(),
    () => tmux.dispose(),
    () => sessions.dispose(),
  );
  return sessions;
}

/** The session logs under `dir` this process holds open. */
function openLogs(dir: string): string[] {
  return readdirSync('/proc/self/fd')
    .map((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`);
      } catch {
        return '';
      }
    })
    .filter((target) => target.startsWith(dir) && target.endsWith('.log'));
}

describe.skipIf(process.platform !== 'linux')('a disposed registry lets go of its detached sessions', () => {
  it('leaves the end of a session it no longer drives to the host that adopts it', async () => {
    const dir = stateDir();
    const a = host(dir, 'host-a');
    const started = await a.start({
      command: 'read x; exit 3',
      shell: true,
      pty: true,
      lifetime: 'detached',
    });
    const pid = started.metadata().pid!;
    // Host A follows the pane: its log is open here.
    await expect.poll(() => openLogs(dir).length, { timeout: 10_000 }).toBe(1);
    await a.dispose();
    // Nothing in this process reads the session's log any more (a follower keeps it open).
    expect(openLogs(dir)).toEqual([]);

    const b = host(dir, 'host-b');
    await expect
      .poll(async () => (await b.recover()).outcomes.find((o) => o.id === started.id)?.outcome, {
        timeout: 15_000,
      })
      .toBe('reattached');
    const adopted = b.get(started.id);
    await adopted.input('go\r');
    expect(await adopted.wait({ timeoutMs: 15_000 })).toMatchObject({ state: 'exited', exitCode: 3 });
    expect(alive(pid)).toBe(false);
  });
});
