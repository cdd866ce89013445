import { isProcmuxError } from '@procmux/core-types';
import { checkLeaksAfterAll, isAlive, requireTool, throwsWith } from '@procmux/test-utils';
import { describe, expect, it } from 'vitest';
import { killTreeWith } from '../src/kill-tree.js';
import { killEffectsFor, tableSourceFor } from '../src/platform.js';
import { PS_PATH } from '../src/ps.js';
import { ignoresTerm, liveWithMarker, spawnTree, statOf, waitForValue } from './helpers.js';

const entry = (pid: number) => ({
  pid,
  ppid: 1,
  pgid: pid,
  state: 'S',
  startTime: undefined,
  marker: undefined,
});
function errno(code: string) {
  return Object.assign(new Error(code), { code });
}

describe('the platform choice', () => {
  it('reads /proc on Linux and Android, runs ps on every other POSIX system', () => {
    expect(tableSourceFor('linux')).toBe('procfs');
    expect(tableSourceFor('android')).toBe('procfs');
    for (const platform of ['darwin', 'freebsd', 'openbsd', 'sunos', 'aix'] as const) {
      expect(tableSourceFor(platform)).toBe('ps');
    }
  });

  it('refuses win32 with ERR_PROCESS_UNSUPPORTED naming the package to use', () => {
    expect(() => killEffectsFor('win32')).toThrow(/@procmux\/kill-windows/);
    throwsWith(() => killEffectsFor('win32'), 'ERR_PROCESS_UNSUPPORTED');
    const error = throwsWith(() => tableSourceFor('win32'), 'ERR_PROCESS_UNSUPPORTED');
    expect(error.message).toMatch(/@procmux\/kill-windows/);
    expect(error.details).toEqual({ platform: 'win32', package: '@procmux/kill-windows' });
  });

  it('turns an unreadable process table into ERR_PROCESS_UNSUPPORTED', async () => {
    const ps = killEffectsFor('darwin', { readPs: () => Promise.reject(new Error('ps: not permitted')) });
    const error = await ps.snapshot().catch((e: unknown) => e);
    expect(isProcmuxError(error, 'ERR_PROCESS_UNSUPPORTED')).toBe(true);
    expect((error as Error).message).toContain('(ps)');
    const procfs = killEffectsFor('linux', { procRoot: '/nonexistent-proc' });
    expect(isProcmuxError(await procfs.snapshot().catch((e: unknown) => e), 'ERR_PROCESS_UNSUPPORTED')).toBe(
      true,
    );
  });

  it('maps kill(2) errors: ESRCH is gone, EPERM denied, anything else is thrown', () => {
    const failWith = (code: string) =>
      killEffectsFor('darwin', {
        kill: () => {
          throw errno(code);
        },
      });
    expect(failWith('ESRCH').signal(5, 'SIGTERM')).toBe('gone');
    expect(failWith('EPERM').signal(5, 'SIGTERM')).toBe('denied');
    expect(() => failWith('EINVAL').signal(5, 'SIGTERM')).toThrow('EINVAL');
    expect(killEffectsFor('darwin', { kill: () => {} }).signal(5, 'SIGKILL')).toBe('sent');
  });

  it('on ps platforms, liveness is kill(pid, 0): EPERM still means it exists', () => {
    expect(killEffectsFor('darwin', { kill: () => {} }).isAlive(entry(5))).toBe(true);
    const eperm = killEffectsFor('darwin', {
      kill: () => {
        throw errno('EPERM');
      },
    });
    expect(eperm.isAlive(entry(5))).toBe(true);
    const esrch = killEffectsFor('darwin', {
      kill: () => {
        throw errno('ESRCH');
      },
    });
    expect(esrch.isAlive(entry(5))).toBe(false);
  });

  it('takes our own marker from the environment', () => {
    expect(killEffectsFor('linux', { env: { PROCMUX_TREE: 'host-1' } }).selfMarker).toBe('host-1');
    expect(killEffectsFor('linux', { env: {} }).selfMarker).toBeUndefined();
  });
});

// Under CI a missing ps fails the file (requireTool), never skips it.
describe.skipIf(process.platform !== 'linux' || requireTool('ps') !== undefined)(
  `the ps path (macOS, BSD) on real processes (Linux with ${PS_PATH})`,
  () => {
    it('kills the group, a setsid child whose parent lives, and a TERM-ignorer, from ps output alone', async () => {
      const tree = await spawnTree(`
        sleep 1000 & ( sleep 1000 & )
        setsid sleep 1000 & echo "setsid $!"
        bash -c "trap '' TERM; exec sleep 1000" & echo "ignorer $!"
        echo ready
        wait`);
      const setsid = tree.pids.get('setsid')!;
      const ignorer = tree.pids.get('ignorer')!;
      const members = await waitForValue(
        () => {
          const live = liveWithMarker(tree.marker);
          return live.length >= 5 && ignoresTerm(ignorer) && statOf(setsid).sid === setsid ? live : undefined;
        },
        10_000,
        'the tree to start',
      );

      const report = await killTreeWith(tree.root, { graceMs: 300 }, killEffectsFor('darwin'));
      expect(report.survivors).toEqual([]);
      expect(report.signalled).toEqual(expect.arrayContaining(members));
      for (const pid of members) expect(isAlive(pid)).toBe(false);
    });
  },
);

checkLeaksAfterAll();
