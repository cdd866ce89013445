// The pid namespace's pure parts at the edges the mutation run (stryker.config.mjs, part
// contain) found untested: which child is the program (pids of several digits, a child gone
// or without NSpid, the search's depth and order), signals without an adapter signal of its
// own or with a kill that fails, and the support check's reason from a probe's stderr.
import type { ProcessAdapter } from '@procmux/core-types';
import { describe, expect, it } from 'vitest';
import { aimSignalsAtProgram } from '../../src/pid-namespace/aim-signals.js';
import { namespacedProgramPid } from '../../src/pid-namespace/program-pid.js';
import { pidNamespaceSupport } from '../../src/pid-namespace/support.js';

const reader = (proc: Record<string, string>) => (path: string) => proc[path];

describe('namespacedProgramPid, edges', () => {
  it('tells a program whose inner pid ends in 1 from the init, and a host child from a program', () => {
    const read = reader({
      '/proc/4200/task/4200/children': '4242 4243\n',
      '/proc/4242/status': 'NSpid:\t4242\n',
      '/proc/4243/status': 'NSpid:\t4243\t11\n',
    });
    expect(namespacedProgramPid(4200, read)).toBe(4243);
  });

  it('skips a child that is gone or whose status has no NSpid line', () => {
    const read = reader({
      '/proc/4200/task/4200/children': '4241 4242 4243\n',
      '/proc/4242/status': 'Name:\told-kernel\n',
      '/proc/4243/status': 'NSpid:\t4243\t2\n',
    });
    expect(namespacedProgramPid(4200, read)).toBe(4243);
  });

  it("does not look into the namespace's init for a program not started yet", () => {
    const read = reader({
      '/proc/4200/task/4200/children': '4201\n',
      '/proc/4201/status': 'NSpid:\t4201\t1\n',
      '/proc/4201/task/4201/children': '4202\n',
      '/proc/4202/status': 'NSpid:\t4202\t2\n',
    });
    expect(namespacedProgramPid(4200, read)).toBeUndefined();
  });

  it('looks under every host child in turn', () => {
    const read = reader({
      '/proc/4200/task/4200/children': '4201 4202\n',
      '/proc/4201/status': 'NSpid:\t4201\n',
      '/proc/4202/status': 'NSpid:\t4202\n',
      '/proc/4202/task/4202/children': '4203\n',
      '/proc/4203/status': 'NSpid:\t4203\t2\n',
    });
    expect(namespacedProgramPid(4200, read)).toBe(4203);
  });

  it('looks down through at most 4 host processes', () => {
    /** A chain of `shells` host processes below 5000, the program under the last. */
    const chain = (shells: number) => {
      const proc: Record<string, string> = {};
      for (let i = 0; i <= shells; i++) {
        const pid = 5000 + i;
        proc[`/proc/${pid}/task/${pid}/children`] = `${pid + 1}\n`;
        proc[`/proc/${pid + 1}/status`] = i === shells ? `NSpid:\t${pid + 1}\t2\n` : `NSpid:\t${pid + 1}\n`;
      }
      return reader(proc);
    };
    expect(namespacedProgramPid(5000, chain(4))).toBe(5005);
    expect(namespacedProgramPid(5000, chain(5))).toBeUndefined();
  });
});

describe('aimSignalsAtProgram, edges', () => {
  it('kills the waiter by pid when the adapter has no signal of its own, and nothing without a pid', async () => {
    const sent: [number, string][] = [];
    const fx = { read: () => undefined, kill: (pid: number, name: string) => void sent.push([pid, name]) };
    const bare = aimSignalsAtProgram({ pid: 4200 } as unknown as ProcessAdapter, fx);
    await bare.signal!('SIGTERM');
    expect(sent).toEqual([[4200, 'SIGTERM']]);
    const unborn = aimSignalsAtProgram({ pid: undefined } as unknown as ProcessAdapter, fx);
    await unborn.signal!('SIGTERM');
    expect(sent).toEqual([[4200, 'SIGTERM']]);
  });

  it('passes on a kill that fails for another reason than the program being gone', async () => {
    const denied = Object.assign(new Error('EPERM'), { code: 'EPERM' });
    const read = reader({
      '/proc/4200/task/4200/children': '4201\n',
      '/proc/4201/status': 'NSpid:\t4201\t2\n',
    });
    const a = aimSignalsAtProgram({ pid: 4200, signal: async () => {} } as unknown as ProcessAdapter, {
      read,
      kill: () => {
        throw denied;
      },
    });
    await expect(a.signal!('SIGTERM')).rejects.toBe(denied);
  });
});

describe('pidNamespaceSupport, reasons', () => {
  const host = (euid: number, stderr: string) => ({
    platform: 'linux' as const,
    euid,
    which: () => true,
    run: async () => ({ code: 1, stderr }),
  });

  it("names the probe's first said line, past blank ones, else its exit code", async () => {
    expect(await pidNamespaceSupport(host(0, '\n  unshare: no room\nmore\n'))).toEqual({
      ok: false,
      reason: 'a pid namespace could not be made (unshare: no room)',
    });
    expect(await pidNamespaceSupport(host(1000, ''))).toEqual({
      ok: false,
      reason:
        'a non-root user cannot make a pid namespace here: unprivileged user namespaces are refused (exit 1)',
    });
  });
});
