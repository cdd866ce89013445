import { describe, expect, it } from 'vitest';
import { createInputDetector } from '../src/input-wait/detector.js';
import { heuristicWaiting, promptLine } from '../src/input-wait/heuristic.js';
import { kernelWaiting, type ProcEffects } from '../src/input-wait/kernel-detect.js';
import {
  epollTargets,
  fdSetMembers,
  parseStat,
  parseSyscall,
  pollReaders,
  ptsPath,
  sttyEcho,
} from '../src/input-wait/procfs.js';

/** A fake /proc: files, links and memory by path, as the detector reads them. */
function fakeProc(
  files: Record<string, string>,
  links: Record<string, string>,
  memory: Record<string, Uint8Array> = {},
  echo = true,
): ProcEffects {
  return {
    readFile: async (path) => files[path],
    readlink: async (path) => links[path],
    readMemory: async (pid, address) => memory[`${pid}@${address.toString(16)}`],
    terminalEcho: async () => echo,
  };
}

// tty_nr 34816 is /dev/pts/0 (major 136, minor 0).
const stat = (pid: number, state: string, ppid: number, pgrp: number, tpgid: number, tty = 34816) =>
  `${pid} (x y) ) ${state} ${ppid} ${pgrp} ${pgrp} ${tty} ${tpgid} 4194304 0 0`;

describe('procfs parsing', () => {
  it('reads stat fields after a command name holding spaces and parentheses', () => {
    expect(parseStat(stat(10, 'S', 1, 10, 12))).toEqual({
      pid: 10,
      state: 'S',
      ppid: 1,
      pgrp: 10,
      session: 10,
      ttyNr: 34816,
      tpgid: 12,
    });
    expect(parseStat('garbage')).toBeUndefined();
  });
  it('reads a blocked call, and not a running one', () => {
    expect(parseSyscall('0 0x3 0x55 0x2000 0x0 0x0 0x0 0x7ffc 0x7f25')).toEqual({
      nr: 0,
      args: [3n, 0x55n, 0x2000n, 0n, 0n, 0n],
    });
    expect(parseSyscall('running')).toBeUndefined();
    expect(parseSyscall('-1 0x7ffc 0x7f25')).toBeUndefined();
  });
  it('names ptys from tty_nr, past 255 too, and nothing else', () => {
    expect(ptsPath(34816)).toBe('/dev/pts/0');
    expect(ptsPath((137 << 8) | 4)).toBe('/dev/pts/260');
    expect(ptsPath((4 << 8) | 1)).toBeUndefined();
  });
  it('reads fd sets, pollfd arrays and epoll targets', () => {
    expect(fdSetMembers(Uint8Array.of(0b1001, 0b1), 9)).toEqual([0, 3, 8]);
    const poll = new Uint8Array(16);
    const view = new DataView(poll.buffer);
    view.setInt32(0, 5, true);
    view.setInt16(4, 1, true);
    view.setInt32(8, 7, true);
    view.setInt16(12, 4, true); // POLLOUT only: not a read
    expect(pollReaders(poll, 2)).toEqual([5]);
    expect(
      epollTargets('pos:\t0\nflags:\t02\ntfd:        0 events:       19 data: 0\ntfd: 9 events: 1\n'),
    ).toEqual([0, 9]);
  });
  it('counts raw mode as echoed and canonical -echo as a password prompt', () => {
    expect(sttyEcho('isig icanon iexten -echo echoe')).toBe(false);
    expect(sttyEcho('isig -icanon iexten -echo echoe')).toBe(true);
    expect(sttyEcho('isig icanon iexten echo echoe')).toBe(true);
    expect(sttyEcho('nothing here')).toBeUndefined();
  });
});

describe('kernelWaiting', () => {
  const pty = { rootPid: 10, kind: 'pty' as const, arch: 'x64' };
  it('a foreground process reading the terminal is waiting; echo comes from termios', async () => {
    const fx = fakeProc(
      {
        '/proc/10/stat': stat(10, 'S', 1, 10, 10),
        '/proc/10/syscall': '0 0x0 0x1 0x1 0 0 0 0 0',
        '/proc/10/task/10/children': '',
      },
      { '/proc/10/fd/0': '/dev/pts/0' },
      {},
      false,
    );
    expect(await kernelWaiting(pty, fx)).toEqual({ waiting: true, echo: false });
  });
  it('a read of /dev/tty counts only for a process whose controlling terminal is ours', async () => {
    const files = {
      '/proc/10/stat': stat(10, 'S', 1, 10, 10),
      '/proc/10/syscall': '0 0x3 0x1 0x1 0 0 0 0 0',
      '/proc/10/task/10/children': '',
    };
    expect(await kernelWaiting(pty, fakeProc(files, { '/proc/10/fd/3': '/dev/tty' }))).toMatchObject({
      waiting: true,
    });
    // A child that made another terminal its own (setsid + open) reads that one's /dev/tty.
    const other = {
      '/proc/10/stat': stat(10, 'S', 1, 10, 11),
      '/proc/10/task/10/children': '11',
      '/proc/11/stat': stat(11, 'S', 10, 11, 11, 34817),
      '/proc/11/syscall': '0 0x3 0x1 0x1 0 0 0 0 0',
      '/proc/11/task/11/children': '',
    };
    expect(await kernelWaiting(pty, fakeProc(other, { '/proc/11/fd/3': '/dev/tty' }))).toEqual({
      waiting: false,
    });
  });
  it('a shell whose foreground child runs is not waiting, even though the shell sleeps in a read', async () => {
    const fx = fakeProc(
      {
        '/proc/10/stat': stat(10, 'S', 1, 10, 11),
        '/proc/10/syscall': '0 0x0 0x1 0x1 0 0 0 0 0',
        '/proc/10/task/10/children': '11',
        '/proc/11/stat': stat(11, 'S', 10, 11, 11),
        '/proc/11/syscall': '230 0x0 0x0 0x7ff 0 0 0 0 0',
        '/proc/11/task/11/children': '',
      },
      { '/proc/10/fd/0': '/dev/pts/0', '/proc/11/fd/0': '/dev/pts/0' },
    );
    expect(await kernelWaiting(pty, fx)).toEqual({ waiting: false });
  });
  it('pselect6 on the terminal (bash readline) is read from the fd_set in memory', async () => {
    const files = {
      '/proc/10/stat': stat(10, 'S', 1, 10, 10),
      '/proc/10/syscall': '270 0x1 0x7ffd00 0x0 0x0 0x0 0x7ffc 0 0',
      '/proc/10/task/10/children': '',
    };
    const links = { '/proc/10/fd/0': '/dev/pts/0' };
    expect(await kernelWaiting(pty, fakeProc(files, links, { '10@7ffd00': Uint8Array.of(1) }))).toMatchObject(
      { waiting: true },
    );
    // Watching the terminal and a socket (ssh, script relaying): busy, not asking
    // (though it polls the input).
    const both = { ...links, '/proc/10/fd/5': 'socket:[9]' };
    expect(
      await kernelWaiting(
        pty,
        fakeProc({ ...files, '/proc/10/syscall': '270 0x6 0x7ffd00 0x0 0x0 0x0 0x7ffc 0 0' }, both, {
          '10@7ffd00': Uint8Array.of(0b100001),
        }),
      ),
    ).toEqual({ waiting: false, pollsInput: true });
    // The memory is unreadable: no guess.
    expect(await kernelWaiting(pty, fakeProc(files, links))).toEqual({ waiting: false });
  });
  it('pipes: a read of our stdin socket is waiting, a read of another socket is not', async () => {
    const pipe = { rootPid: 10, kind: 'pipe' as const, arch: 'x64' };
    const files = {
      '/proc/10/stat': stat(10, 'S', 1, 10, -1, 0),
      '/proc/10/syscall': '0 0x4 0x1 0x1 0 0 0 0 0',
      '/proc/10/task/10/children': '',
    };
    expect(
      await kernelWaiting(
        pipe,
        fakeProc(files, { '/proc/10/fd/0': 'socket:[5]', '/proc/10/fd/4': 'socket:[5]' }),
      ),
    ).toEqual({ waiting: true, echo: true });
    expect(
      await kernelWaiting(
        pipe,
        fakeProc(files, { '/proc/10/fd/0': 'socket:[5]', '/proc/10/fd/4': 'socket:[6]' }),
      ),
    ).toEqual({ waiting: false });
  });
  it('answers null (use the heuristic) when /proc cannot be read or the architecture is unknown', async () => {
    expect(await kernelWaiting(pty, fakeProc({}, {}))).toBeNull();
    const files = { '/proc/10/stat': stat(10, 'S', 1, 10, 10), '/proc/10/task/10/children': '' };
    expect(await kernelWaiting(pty, fakeProc(files, { '/proc/10/fd/0': '/dev/pts/0' }))).toBeNull();
    expect(await kernelWaiting({ ...pty, arch: 'ppc64' }, fakeProc(files, {}))).toBeNull();
  });
});

describe('the detector per platform', () => {
  const facts = { rootPid: 10, kind: 'pty' as const, quietMs: 600, prompt: 'Password:' };
  it('macOS and Windows use the heuristic: quiet output and an unfinished line', async () => {
    for (const platform of ['darwin', 'win32'] as const) {
      const detect = createInputDetector({ platform, arch: 'x64' }, fakeProc({}, {}));
      expect(await detect(facts)).toEqual({ waiting: true, echo: false, confidence: 'heuristic' });
      expect(await detect({ ...facts, quietMs: 100 })).toMatchObject({ waiting: false });
      expect(await detect({ ...facts, prompt: '' })).toMatchObject({ waiting: false });
    }
  });
  it('Linux asks the kernel, and falls back to the heuristic when it cannot see', async () => {
    const files = {
      '/proc/10/stat': stat(10, 'S', 1, 10, 10),
      '/proc/10/syscall': '0 0x0 0x1 0x1 0 0 0 0 0',
      '/proc/10/task/10/children': '',
    };
    const detect = createInputDetector(
      { platform: 'linux', arch: 'x64' },
      fakeProc(files, { '/proc/10/fd/0': '/dev/pts/0' }),
    );
    expect(await detect({ ...facts, quietMs: 0 })).toEqual({
      waiting: true,
      echo: true,
      confidence: 'kernel',
    });
    const blind = createInputDetector({ platform: 'linux', arch: 'x64' }, fakeProc({}, {}));
    expect(await blind(facts)).toMatchObject({ confidence: 'heuristic', waiting: true });
  });
  it('heuristic echo is guessed from the prompt words only', () => {
    expect(heuristicWaiting({ quietMs: 600, prompt: 'Enter passphrase for key:' }).echo).toBe(false);
    expect(heuristicWaiting({ quietMs: 600, prompt: 'name?' }).echo).toBe(true);
  });
  it('the prompt is the unfinished last line, after a carriage return', () => {
    expect(promptLine('log\nname? ')).toBe('name?');
    expect(promptLine('50%\r100%\rPassword: ')).toBe('Password:');
    expect(promptLine('done\n')).toBe('');
    expect(promptLine('x'.repeat(500)).length).toBe(200);
  });
});
