import { isProcmuxError } from '@procmux/core-types';
import { checkLeaksAfterAll, throwsWith } from '@procmux/test-utils';
import { describe, expect, it } from 'vitest';
import { killEffectsFor, tableSourceFor } from '../src/platform.js';
import { PS_ARGS, parsePsOutput, psEnvArgs } from '../src/ps.js';

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
    expect((error as Error).cause).toEqual(new Error('ps: not permitted'));
    expect((error as { details?: unknown }).details).toEqual({ source: 'ps' });
    const procfs = killEffectsFor('linux', { procRoot: '/nonexistent-proc' });
    const procError = await procfs.snapshot().catch((e: unknown) => e);
    expect(isProcmuxError(procError, 'ERR_PROCESS_UNSUPPORTED')).toBe(true);
    expect((procError as Error).message).toBe(
      'could not read the process table (/proc), so the tree cannot be found',
    );
    expect((procError as { details?: unknown }).details).toEqual({ source: 'procfs' });
  });

  it('defaults to this process, its environment, the real clock and real timers', async () => {
    const effects = killEffectsFor('linux');
    expect(effects.selfPid).toBe(process.pid);
    const before = Date.now();
    const now = effects.now();
    expect(now).toBeGreaterThanOrEqual(before);
    expect(now).toBeLessThanOrEqual(Date.now());
    // A timer of 1 ms fires before one of 2 s, however loaded the machine: the sleep resolves.
    const pending = effects.sleep(1);
    expect(pending).toBeInstanceOf(Promise);
    const slept = pending.then(() => 'slept');
    let timer: NodeJS.Timeout | undefined;
    const never = new Promise((resolve) => {
      timer = setTimeout(() => resolve('never'), 2_000);
    });
    expect(await Promise.race([slept, never])).toBe('slept');
    clearTimeout(timer);
    const saved = process.env.PROCMUX_TREE;
    process.env.PROCMUX_TREE = 'from-env-1';
    try {
      expect(killEffectsFor('linux').selfMarker).toBe('from-env-1');
    } finally {
      if (saved === undefined) delete process.env.PROCMUX_TREE;
      else process.env.PROCMUX_TREE = saved;
    }
  });

  it.skipIf(process.platform !== 'linux')(
    'reads a real /proc table through the default effects on Linux',
    async () => {
      const table = await killEffectsFor('linux').snapshot();
      const self = table.find((e) => e.pid === process.pid)!;
      expect(self.ppid).toBe(process.ppid);
      const effects = killEffectsFor('linux');
      expect(effects.isAlive(self)).toBe(true);
      // /proc tells a reused pid (another start time) apart, which kill(pid, 0) cannot.
      expect(effects.isAlive({ ...self, startTime: self.startTime! + 1 })).toBe(false);
    },
  );

  it('signals with process.kill by default: a pid that cannot exist is gone', () => {
    const effects = killEffectsFor('darwin');
    expect(effects.isAlive(entry(0x7fff_ffff))).toBe(false);
    expect(effects.signal(0x7fff_ffff, 'SIGTERM')).toBe('gone');
    expect(effects.isAlive(entry(process.pid))).toBe(true);
  });

  it('asks ps for environments where it can print them, and for the plain columns elsewhere', async () => {
    const asked: string[] = [];
    const runPs = async (args: readonly string[]) => {
      asked.push(args.join(' '));
      return '  12     1    12 S\n';
    };
    expect(await killEffectsFor('darwin', { runPs }).snapshot()).toEqual(parsePsOutput('  12     1    12 S'));
    await killEffectsFor('freebsd', { runPs }).snapshot();
    await killEffectsFor('sunos', { runPs }).snapshot();
    await killEffectsFor('darwin', { runPs, psEnvArgs: null }).snapshot();
    await killEffectsFor('darwin', { runPs, psEnvArgs: ['-x'] }).snapshot();
    expect(asked).toEqual([
      psEnvArgs('darwin')!.join(' '),
      psEnvArgs('freebsd')!.join(' '),
      PS_ARGS.join(' '),
      PS_ARGS.join(' '),
      '-x',
    ]);
  });

  it('treats a kill that throws something other than an errno error as not ESRCH or EPERM', () => {
    const throwing = killEffectsFor('darwin', {
      kill: () => {
        throw null;
      },
    });
    expect(throwing.isAlive(entry(5))).toBe(false);
    let caught: unknown = 'nothing thrown';
    try {
      throwing.signal(5, 'SIGTERM');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeNull();
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

checkLeaksAfterAll();
