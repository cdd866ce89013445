// What of a run's tree outlived its process: named from /proc (faked here), forks waited for.
import { spawn } from 'node:child_process';
import { assertNoLeakedProcesses, descendantsOf, waitFor } from '@procmux/test-utils';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import {
  EXEC_WAIT_CAP_MS,
  isExecWrapper,
  listLeftovers,
  nameOf,
  readProcFile,
  startsBackgroundJob,
} from '../src/leftovers.js';

function procfs(files: Record<string, string>) {
  return (file: string) => files[file];
}

const stat = (pid: number, state: string) => `${pid} (x y) ${state} 1 1 1`;
/** A stat line with its parent and the CPU it used (utime + stime, in 10 ms ticks). */
const statOf = (pid: number, ppid: number, cpuTicks: number) =>
  `${pid} (bash) R ${ppid} ${pid} ${pid} 0 -1 4194304 100 0 0 0 ${cpuTicks} 0 0 0 20 0 1 0`;
const SHELL = ['bash', '-c', 'sleep 30 & echo started'];
const SHELL_LINE = 'bash\u0000-c\u0000sleep 30 & echo started';

afterEach(() => {
  vi.useRealTimers();
});
afterAll(async () => {
  await assertNoLeakedProcesses();
});

/** /proc's files for a process `pid` under `ppid`, which has used no CPU, running `line`. */
const member = (pid: number, ppid: number, line: string): Record<string, string> => ({
  [`/proc/${pid}/stat`]: statOf(pid, ppid, 0),
  [`/proc/${pid}/cmdline`]: line.split(' ').join('\u0000'),
});

/** Lists the one member `pid`, whose command line becomes each of `execs` in turn, one per look. */
async function listAsExecing(files: Record<string, string>, pid: number, execs: readonly string[]) {
  let looks = 0;
  const found = await listLeftovers(5, {
    pids: () => [pid],
    read: procfs(files),
    sleep: async () => {
      files[`/proc/${pid}/cmdline`] = execs[Math.min(looks, execs.length - 1)]!;
      looks += 1;
    },
  });
  return { found, looks };
}

describe('leftovers of a run', () => {
  it('names a process by its command line, else its comm, and skips zombies and the gone', () => {
    const read = procfs({
      '/proc/10/stat': stat(10, 'S'),
      '/proc/10/cmdline': 'sleep\u000030\u0000',
      '/proc/11/stat': stat(11, 'S'),
      '/proc/11/cmdline': '',
      '/proc/11/comm': 'kworker\n',
      '/proc/12/stat': stat(12, 'Z'),
      '/proc/12/comm': 'sleep\n',
    });
    expect(nameOf(10, { read })).toBe('sleep 30');
    expect(nameOf(11, { read })).toBe('kworker');
    expect(nameOf(12, { read })).toBeUndefined();
    expect(nameOf(13, { read })).toBeUndefined();
  });

  it('cuts a long command line at 200 characters', () => {
    const read = procfs({
      '/proc/10/stat': stat(10, 'R'),
      '/proc/10/cmdline': `node\u0000${'x'.repeat(300)}`,
    });
    expect(nameOf(10, { read })).toHaveLength(200);
  });

  it('lists the tree but its exited root, and waits for a fork of the root to exec', async () => {
    const files: Record<string, string> = {
      '/proc/20/stat': stat(20, 'S'),
      '/proc/20/cmdline': 'bash\u0000-c\u0000sleep 30 & echo started',
      '/proc/21/stat': stat(21, 'S'),
      '/proc/21/cmdline': 'npm\u0000run\u0000dev',
    };
    let sleeps = 0;
    const found = await listLeftovers(
      5,
      {
        pids: () => [21, 5, 20, 21],
        read: procfs(files),
        sleep: async () => {
          sleeps += 1;
          // The fork execs its program on the third look.
          if (sleeps === 2) files['/proc/20/cmdline'] = 'sleep\u000030';
        },
      },
      ['bash', '-c', 'sleep 30 & echo started'],
    );
    expect(found).toEqual([
      { pid: 20, command: 'sleep 30' },
      { pid: 21, command: 'npm run dev' },
    ]);
    expect(sleeps).toBe(2);
  });

  it('waits for a member caught inside its exec (command line still empty) to show its arguments', async () => {
    const files: Record<string, string> = {
      '/proc/30/stat': stat(30, 'S'),
      '/proc/30/cmdline': '',
      '/proc/30/comm': 'sleep\n',
    };
    const { found, looks } = await listAsExecing(files, 30, ['sleep\u000030\u0000']);
    expect(found).toEqual([{ pid: 30, command: 'sleep 30' }]);
    expect(looks).toBe(1);
  });

  // A command line filled in between the read that found it empty and a second read: the name
  // is the comm of that first moment (`setsid`), so the first read's emptiness decides.
  it('waits for a member whose command line was empty when its name was read, though it is filled in now', async () => {
    const files: Record<string, string> = { '/proc/50/stat': stat(50, 'S'), '/proc/50/comm': 'setsid\n' };
    let cmdlineReads = 0;
    const read = (file: string) => {
      if (file !== '/proc/50/cmdline') return files[file];
      cmdlineReads += 1;
      // Empty for the first read only; sleep's once the comm has changed too.
      if (cmdlineReads === 1) return '';
      files['/proc/50/comm'] = 'sleep\n';
      return 'sleep\u000030\u0000';
    };
    const found = await listLeftovers(5, { pids: () => [50], read, sleep: async () => {} });
    expect(found).toEqual([{ pid: 50, command: 'sleep 30' }]);
  });

  // `(setsid env -i sleep 30 &)`: the fork execs setsid, which execs env, which execs sleep;
  // read between two of them it would be named `setsid env -i sleep 30`, or `env -i sleep 30`.
  it('waits for an exec wrapper (setsid, env, nohup…) to reach its program', async () => {
    const files = member(40, 1, 'setsid env -i sleep 30');
    const { found, looks } = await listAsExecing(files, 40, [
      'env\u0000-i\u0000sleep\u000030',
      'sleep\u000030',
    ]);
    expect(found).toEqual([{ pid: 40, command: 'sleep 30' }]);
    expect(looks).toBe(2);
  });

  it('names a wrapper that forked and waits (setsid -w) as itself, at once', async () => {
    const files = { ...member(40, 1, 'setsid -w sleep 30'), ...member(41, 40, 'sleep 30') };
    const sleep = vi.fn(async () => {});
    const found = await listLeftovers(5, { pids: () => [40, 41], read: procfs(files), sleep });
    expect(found).toEqual([
      { pid: 40, command: 'setsid -w sleep 30' },
      { pid: 41, command: 'sleep 30' },
    ]);
    expect(sleep).not.toHaveBeenCalled();
  });

  it('tells an exec wrapper on its way to a program from a program or a bare wrapper', () => {
    for (const line of ['setsid sleep 30', '/usr/bin/env -i x', 'nohup npm start', 'nice -n 5 make']) {
      expect(isExecWrapper(line), line).toBe(true);
    }
    for (const line of ['sleep 30', 'env', 'nohup', 'setsidx sleep', 'python3 env.py']) {
      expect(isExecWrapper(line), line).toBe(false);
    }
  });

  /** The fork of the shell (20), not exec'd yet, having used `cpuTicks` of CPU. */
  const unexecdFork = (cpuTicks = 0): Record<string, string> => ({
    '/proc/20/stat': statOf(20, 1, cpuTicks),
    '/proc/20/cmdline': SHELL_LINE,
  });

  // The clock is faked: each look costs 100 ms of it, as on a machine where the fork waits
  // that long for a core. `onLook` changes /proc between looks.
  async function listSlowly(files: Record<string, string>, onLook: (looks: number) => void = () => {}) {
    vi.useFakeTimers({ toFake: ['Date'] });
    let looks = 0;
    const sleep = async () => {
      looks += 1;
      vi.setSystemTime(Date.now() + 100);
      onLook(looks);
    };
    const found = await listLeftovers(5, { pids: () => [20], read: procfs(files), sleep }, SHELL);
    return { found, looks };
  }

  it('waits for a fork that gets no CPU for longer than the grace: it is not a subshell yet', async () => {
    const files = unexecdFork();
    const { found, looks } = await listSlowly(files, (n) => {
      // A second of the clock later, having used 10 ms of CPU, it execs.
      if (n === 10) files['/proc/20/cmdline'] = 'sleep\u000030';
      else files['/proc/20/stat'] = statOf(20, 1, 1);
    });
    expect(found).toEqual([{ pid: 20, command: 'sleep 30' }]);
    expect(looks).toBe(10);
  });

  it('names a fork that used the grace in CPU without exec, or runs children, as the shell at once', async () => {
    const files: Record<string, string> = {
      // A busy subshell: 250 ms of CPU.
      ...unexecdFork(25),
      // A subshell running a command of its own (23).
      '/proc/22/stat': statOf(22, 1, 0),
      '/proc/22/cmdline': SHELL_LINE,
      '/proc/23/stat': statOf(23, 22, 0),
      '/proc/23/cmdline': 'sleep\u00001',
    };
    let looks = 0;
    const countLook = async () => {
      looks += 1;
    };
    const found = await listLeftovers(
      5,
      { pids: () => [20, 22, 23], read: procfs(files), sleep: countLook },
      SHELL,
    );
    expect(found).toEqual([
      { pid: 20, command: 'bash -c sleep 30 & echo started' },
      { pid: 22, command: 'bash -c sleep 30 & echo started' },
      { pid: 23, command: 'sleep 1' },
    ]);
    expect(looks).toBe(0);
  });

  it('gives up on a fork that never execs after EXEC_WAIT_CAP_MS, naming it as the shell', async () => {
    const { found, looks } = await listSlowly(unexecdFork());
    expect(found).toEqual([{ pid: 20, command: 'bash -c sleep 30 & echo started' }]);
    expect(looks).toBe(EXEC_WAIT_CAP_MS / 100);
  });

  // The same read from the real /proc: a shell that waits for its own child is a subshell.
  it.runIf(process.platform === 'linux')(
    'reads a real shell with a child of its own as settled, at once',
    async () => {
      const argv = ['sh', '-c', 'sleep 30; exit 0'];
      const shell = spawn(argv[0]!, argv.slice(1), { stdio: 'ignore' });
      const exited = new Promise((resolve) => shell.once('exit', resolve));
      try {
        const child = await waitFor(() => descendantsOf(shell.pid!)[0]?.pid, 10_000, 'the shell forks sleep');
        let looks = 0;
        const countLook = async () => {
          looks += 1;
        };
        const found = await listLeftovers(
          -1,
          { pids: () => [shell.pid!, child!], read: readProcFile, sleep: countLook },
          argv,
        );
        expect(found).toEqual([
          { pid: shell.pid, command: 'sh -c sleep 30; exit 0' },
          { pid: child, command: 'sleep 30' },
        ]);
        expect(looks).toBe(0);
      } finally {
        const tree = descendantsOf(shell.pid!);
        shell.kill('SIGKILL');
        for (const p of tree) process.kill(p.pid, 'SIGKILL');
        await exited;
      }
    },
  );

  it('tells a line that may start a background job from one that cannot', () => {
    for (const line of ['sleep 30 & echo started', 'npm run dev &', 'a&b', '(x) & wait']) {
      expect(startsBackgroundJob(line)).toBe(true);
    }
    for (const line of ['a && b', 'echo hi >&2', 'cmd &> log', 'cmd |& tee log', 'exec 3<&0', 'sleep 5']) {
      expect(startsBackgroundJob(line)).toBe(false);
    }
  });
});
