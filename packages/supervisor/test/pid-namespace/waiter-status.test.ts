// The exit a pid-namespace run reports when its waiter (util-linux unshare) could not pass the
// program's SIGKILL on, and the argv that sends the waiter's own stderr to the status file.
import type { ProcessAdapter, WaitResult } from '@procmux/core-types';
import { assertNoLeakedProcesses } from '@procmux/test-utils';
import { describe, expect, it } from 'vitest';
import { hostPidNamespaceSupport } from '../../src/pid-namespace/node-support.js';
import {
  readWaiterExit,
  reportProgramExit,
  waiterStatusFile,
} from '../../src/pid-namespace/waiter-status.js';
import { PROGRAM_STARTED_MARK, pidNamespaceTarget } from '../../src/pid-namespace/wrap.js';
import { ProcessSupervisor } from '../../src/supervisor.js';
import { recordingLogger } from '../helpers.js';

const complaint = `${PROGRAM_STARTED_MARK}unshare: sigprocmask unblock failed: Invalid argument\n`;

describe('readWaiterExit', () => {
  it('reads exit 1 with a complaint after the started mark as the SIGKILL unshare could not re-raise', () => {
    expect(readWaiterExit({ code: 1, signal: null }, complaint)).toEqual({ code: null, signal: 'SIGKILL' });
  });

  it("keeps the program's own exit 1, and any other code or signal, as the waiter reported it", () => {
    expect(readWaiterExit({ code: 1, signal: null }, PROGRAM_STARTED_MARK)).toEqual({
      code: 1,
      signal: null,
    });
    expect(readWaiterExit({ code: 137, signal: null }, complaint)).toEqual({ code: 137, signal: null });
    expect(readWaiterExit({ code: null, signal: 'SIGTERM' }, complaint)).toEqual({
      code: null,
      signal: 'SIGTERM',
    });
  });

  it('keeps exit 1 when the program never started (unshare failed first) or no status was read', () => {
    expect(readWaiterExit({ code: 1, signal: null }, 'unshare: fork failed\n')).toEqual({
      code: 1,
      signal: null,
    });
    expect(readWaiterExit({ code: 1, signal: null }, '')).toEqual({ code: 1, signal: null });
    expect(readWaiterExit({ code: 1, signal: null }, undefined)).toEqual({ code: 1, signal: null });
  });
});

describe('reportProgramExit', () => {
  function adapter(result: WaitResult | Error): ProcessAdapter {
    return {
      wait: () => (result instanceof Error ? Promise.reject(result) : Promise.resolve(result)),
    } as unknown as ProcessAdapter;
  }

  it('reads the status file once, removes the directory, and answers every wait() alike', async () => {
    const calls: string[] = [];
    const a = reportProgramExit(adapter({ code: 1, signal: null }), '/tmp/procmux-pidns-x', {
      makeDir: () => '',
      read: (file) => {
        calls.push(`read ${file}`);
        return complaint;
      },
      removeDir: (dir) => void calls.push(`rm ${dir}`),
    });
    expect(await a.wait()).toEqual({ code: null, signal: 'SIGKILL' });
    expect(await a.wait()).toEqual({ code: null, signal: 'SIGKILL' });
    expect(calls).toEqual([`read ${waiterStatusFile('/tmp/procmux-pidns-x')}`, 'rm /tmp/procmux-pidns-x']);
  });

  it('removes the directory when the wait fails too', async () => {
    const removed: string[] = [];
    const a = reportProgramExit(adapter(new Error('gone')), '/tmp/procmux-pidns-y', {
      makeDir: () => '',
      read: () => undefined,
      removeDir: (dir) => void removed.push(dir),
    });
    await expect(a.wait()).rejects.toThrow('gone');
    expect(removed).toEqual(['/tmp/procmux-pidns-y']);
  });
});

describe('pidNamespaceTarget with a status file', () => {
  it("sends unshare's stderr to the file and gives the program the real one through an inner sh", () => {
    const { file, args } = pidNamespaceTarget(
      { file: 'sleep', args: ['5'] },
      { userNamespace: false },
      '/s/w',
    );
    expect(file).toBe('unshare');
    expect(args.slice(0, 4)).toEqual(['--pid', '--', '/bin/sh', '-c']);
    expect(args.slice(5)).toEqual(['procmux-pidns', '/s/w', 'sleep', '5']);
    expect(args[4]).toContain('s=$1; shift');
    expect(args[4]).toMatch(
      /exec unshare --fork -- \/bin\/sh -c '[^']*exec 2>&3 3>&-; exec "\$@"' procmux-pidns-run "\$@" 3>&2 2>"\$s"$/,
    );
  });
});

const support = await hostPidNamespaceSupport();

describe.skipIf(!support.ok)('a pid-namespace run whose status directory cannot be made', () => {
  it('still runs, with its exit code, and says in a warning what it cannot tell', async () => {
    const { logger, warnings } = recordingLogger();
    const supervisor = new ProcessSupervisor({ logger });
    const before = process.env.TMPDIR;
    process.env.TMPDIR = '/nonexistent/procmux-no-tmp';
    try {
      const run = await supervisor.spawn({
        file: 'sh',
        args: ['-c', 'exit 3'],
        pidNamespace: support.ok ? support.spec : { userNamespace: false },
      });
      expect(await run.wait()).toMatchObject({ reason: 'exit', exitCode: 3 });
    } finally {
      if (before === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = before;
    }
    expect(warnings.map((w) => w.message)).toEqual([
      "procmux: no directory for a pid-namespace waiter's status (a SIGKILL from outside will read as exit 1)",
    ]);
    await assertNoLeakedProcesses();
  });
});
