// The namespace wrapper's argv, the program's pid under the waiter, and signals aimed at it.
import type { ProcessAdapter } from '@procmux/core-types';
import { describe, expect, it } from 'vitest';
import { aimSignalsAtProgram } from '../../src/pid-namespace/aim-signals.js';
import { namespacedProgramPid } from '../../src/pid-namespace/program-pid.js';
import { PID_NAMESPACE_INIT, pidNamespaceTarget } from '../../src/pid-namespace/wrap.js';

describe('pidNamespaceTarget', () => {
  it('runs the program under unshare --pid, after the init, as argv of the inner shell', () => {
    const { file, args } = pidNamespaceTarget(
      { file: 'sleep', args: ['5', 'a b'] },
      { userNamespace: false },
    );
    expect(file).toBe('unshare');
    expect(args.slice(0, 4)).toEqual(['--pid', '--', '/bin/sh', '-c']);
    expect(args.slice(5)).toEqual(['procmux-pidns', 'sleep', '5', 'a b']);
    // The init is tied to the waiter, which execs `unshare --fork` (the program's parent).
    expect(args[4]).toContain(`setpriv --pdeathsig KILL`);
    expect(args[4]).toContain(PID_NAMESPACE_INIT);
    expect(args[4]).toMatch(/exec unshare --fork -- "\$@"$/);
  });

  it('adds a user namespace mapped to the same uid for a non-root host', () => {
    const { args } = pidNamespaceTarget({ file: 'true', args: [] }, { userNamespace: true });
    expect(args.slice(0, 3)).toEqual(['--user', '--map-current-user', '--pid']);
  });
});

const proc: Record<string, string> = {
  '/proc/100/task/100/children': '101 102\n',
  '/proc/101/status': 'Name:\tsh\nNSpid:\t101\t1\n',
  '/proc/102/status': 'Name:\tpython3\nNSpid:\t102\t2\n',
};
const read = (path: string) => proc[path];

describe('namespacedProgramPid', () => {
  it("is the waiter's child that is not the namespace's init", () => {
    expect(namespacedProgramPid(100, read)).toBe(102);
  });

  it('is found below a shell that runs the waiter (a tmux pane), not beside a namespace', () => {
    const deeper: Record<string, string> = {
      '/proc/90/task/90/children': '100\n',
      '/proc/100/status': 'Name:\tunshare\nNSpid:\t100\n',
      ...proc,
    };
    expect(namespacedProgramPid(90, (p) => deeper[p])).toBe(102);
  });

  it('is undefined before the program started, once it is gone, or for a process not in a namespace', () => {
    expect(namespacedProgramPid(100, (p) => (p.endsWith('children') ? '101\n' : read(p)))).toBeUndefined();
    expect(namespacedProgramPid(100, () => undefined)).toBeUndefined();
    expect(
      namespacedProgramPid(100, (p) => (p === '/proc/102/status' ? 'NSpid:\t102\n' : read(p))),
    ).toBeUndefined();
  });
});

describe('aimSignalsAtProgram', () => {
  function adapter(): ProcessAdapter & { own: string[] } {
    const own: string[] = [];
    return {
      pid: 100,
      own,
      signal: async (name: string) => void own.push(name),
    } as unknown as ProcessAdapter & {
      own: string[];
    };
  }

  it('signals the program, not the waiter', async () => {
    const sent: [number, string][] = [];
    const a = aimSignalsAtProgram(adapter(), { read, kill: (pid, name) => void sent.push([pid, name]) });
    await a.signal!('SIGINT');
    expect(sent).toEqual([[102, 'SIGINT']]);
    expect(a.own).toEqual([]);
  });

  it("uses the adapter's own signal once the program is gone", async () => {
    const sent: [number, string][] = [];
    const a = aimSignalsAtProgram(adapter(), {
      read: () => undefined,
      kill: (pid, name) => void sent.push([pid, name]),
    });
    await a.signal!('SIGHUP');
    expect(sent).toEqual([]);
    expect(a.own).toEqual(['SIGHUP']);
  });

  it('a program that ended between the lookup and the kill is no error', async () => {
    const gone = Object.assign(new Error('ESRCH'), { code: 'ESRCH' });
    const a = aimSignalsAtProgram(adapter(), {
      read,
      kill: () => {
        throw gone;
      },
    });
    await expect(a.signal!('SIGTERM')).resolves.toBeUndefined();
  });
});
