// A tmux command that failed for another reason than "no server" or "no such session" (a
// client that timed out, a server exiting under the command) says nothing of the sessions.
// Read as "none", it had recover() remove a live pane's cgroup (killing its tree) and write
// the record unknown, listSessions() answer [] and killServer() stop the server and delete
// the session files while an escapee lived on. A shim fails the one command while a flag
// file exists; the real tmux answers once it is gone.
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isProcmuxError, RECOVERY_NAMESPACE } from '@procmux/core-types';
import { afterEach, describe, expect, it } from 'vitest';
import { locateTmux, type TmuxBinary } from '../src/index.js';
import { disposeHosts, newHost } from './durable-hosts.js';
import { alive, paneText, sigkill, startHost, stateDir, teardown } from './helpers.js';

afterEach(async () => {
  await disposeHosts();
  await teardown();
});

/** tmux, except that `command` fails (exit 1, "lost server") while `flag` exists. */
function failingTmux(dir: string, command: string, flag: string): TmuxBinary {
  const real = locateTmux();
  const shim = join(dir, `tmux-failing-${command}`);
  writeFileSync(
    shim,
    [
      '#!/bin/sh',
      `if [ -e ${flag} ]; then case " $* " in *" ${command} "*) echo 'lost server' >&2; exit 1 ;; esac; fi`,
      `exec ${real.path} "$@"`,
      '',
    ].join('\n'),
    { mode: 0o755 },
  );
  return { ...real, path: shim };
}

describe.skipIf(process.platform === 'win32')('a tmux lookup that failed is never read as "gone"', () => {
  it('recover() leaves the session for its next run: alive, its record untouched; the next run re-attaches it', async () => {
    const dir = stateDir();
    const { child, first } = await startHost<{ id: string; pid: number }>('host.mjs', [
      dir,
      'echo ready; read x; echo "got-$x"; exit 6',
    ]);
    await expect.poll(() => paneText(dir), { timeout: 10_000 }).toContain('ready');
    await sigkill(child);
    const flag = join(dir, 'fail');
    writeFileSync(flag, '');
    const host = newHost(dir, 'host-1', failingTmux(dir, 'display-message', flag));
    const before = await host.store.checkpoints.list(RECOVERY_NAMESPACE);
    expect(before.map((entry) => entry.key)).toEqual([first.id]);

    const report = await host.sessions.recover();
    expect(report.outcomes).toMatchObject([
      { id: first.id, outcome: 'unknown', written: false, code: 'ERR_RECOVERY_UNREACHABLE' },
    ]);
    expect(report.outcomes[0]?.reason).toMatch(
      /could not look up session proc_\w+ now: could not ask tmux about session pm-\w+ \(lost server\); try again later/,
    );
    expect(alive(first.pid)).toBe(true);
    expect(await host.store.checkpoints.list(RECOVERY_NAMESPACE)).toEqual(before);
    expect(host.sessions.list()).toHaveLength(0);

    rmSync(flag);
    const again = await host.sessions.recover();
    expect(again.outcomes).toMatchObject([{ id: first.id, outcome: 'reattached' }]);
    const session = host.sessions.get(first.id);
    await session.input('hi\r');
    expect(await session.wait({ timeoutMs: 10_000 })).toMatchObject({ state: 'exited', exitCode: 6 });
    expect((await session.log({})).text).toContain('got-hi');
  });

  it('listSessions() and killServer() throw ERR_PROCESS_PTY_BACKEND, killing and deleting nothing', async () => {
    const dir = stateDir();
    const flag = join(dir, 'fail');
    const host = newHost(dir, 'host-1', failingTmux(dir, 'list-sessions', flag));
    const lister = newHost(dir, 'host-1', failingTmux(dir, 'list-panes', flag));
    const s = await host.sessions.start({
      command: 'sh',
      args: ['-c', 'sleep 60'],
      pty: true,
      lifetime: 'detached',
    });
    const names = await host.tmux.listSessions();
    expect(names).toHaveLength(1);
    const sessionFile = join(dir, 'tmux', 'sessions', `${names[0]}.log`);
    writeFileSync(flag, '');

    const listed = await host.tmux.listSessions().catch((error: unknown) => error);
    expect(isProcmuxError(listed, 'ERR_PROCESS_PTY_BACKEND')).toBe(true);
    expect((listed as Error).message).toBe('tmux list-sessions failed: lost server');
    const killed = await lister.tmux.killServer().catch((error: unknown) => error);
    expect(isProcmuxError(killed, 'ERR_PROCESS_PTY_BACKEND')).toBe(true);
    expect((killed as Error).message).toBe('tmux list-panes failed: lost server');
    expect(alive(s.metadata().pid!)).toBe(true);
    expect(await host.tmux.serverPid()).toBeDefined();
    expect(existsSync(sessionFile)).toBe(true);

    rmSync(flag);
    await host.sessions.dispose();
    await lister.tmux.killServer();
    expect(await host.tmux.listSessions()).toEqual([]);
    expect(alive(s.metadata().pid!)).toBe(false);
  });
});
