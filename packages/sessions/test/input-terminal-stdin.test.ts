// A pipe session whose stdin is a terminal (stdin 'terminal', what one_shot uses on POSIX),
// and the verdict that lets one_shot tell an event loop polling stdin from a quiet program.
import { describe, expect, it } from 'vitest';
import { kernelWaiting, type ProcEffects } from '../src/input-wait/kernel-detect.js';

function fakeProc(files: Record<string, string>, links: Record<string, string>, echo = true) {
  const asked: string[] = [];
  const fx: ProcEffects = {
    readFile: async (path) => files[path],
    readlink: async (path) => links[path],
    readMemory: async () => undefined,
    terminalEcho: async (path) => {
      asked.push(path);
      return echo;
    },
  };
  return { fx, asked };
}

// tty_nr 34819 is /dev/pts/3 (major 136, minor 3): bash made the stdin terminal its own.
const stat = (pid: number, ppid: number, tty = 34819) =>
  `${pid} (bash) S ${ppid} ${pid} ${pid} ${tty} ${pid} 4194304 0 0`;
const pipe = { rootPid: 10, kind: 'pipe' as const, arch: 'x64' };

describe('kernelWaiting on a pipe session with a terminal stdin', () => {
  it('a read of the terminal stdin is waiting, and echo is read from that terminal', async () => {
    const { fx, asked } = fakeProc(
      {
        '/proc/10/stat': stat(10, 1),
        '/proc/10/syscall': '0 0x0 0x7ffc 0x1 0 0 0 0 0',
        '/proc/10/task/10/children': '',
      },
      { '/proc/10/fd/0': '/dev/pts/3' },
      false,
    );
    expect(await kernelWaiting(pipe, fx)).toEqual({ waiting: true, echo: false });
    expect(asked).toEqual(['/dev/pts/3']);
  });

  it('a child reading /dev/tty counts when that is the stdin terminal, not another', async () => {
    const files = (childTty: number) => ({
      '/proc/10/stat': stat(10, 1),
      '/proc/10/syscall': '61 0xffffffff 0 0 0 0 0 0 0',
      '/proc/10/task/10/children': '11',
      '/proc/11/stat': stat(11, 10, childTty),
      '/proc/11/syscall': '0 0x5 0x7ffc 0x1 0 0 0 0 0',
      '/proc/11/task/11/children': '',
    });
    const links = { '/proc/10/fd/0': '/dev/pts/3', '/proc/11/fd/5': '/dev/tty' };
    expect(await kernelWaiting(pipe, fakeProc(files(34819), links).fx)).toEqual({
      waiting: true,
      echo: true,
    });
    expect(await kernelWaiting(pipe, fakeProc(files(34820), links).fx)).toEqual({ waiting: false });
  });

  it('an epoll over stdin and other descriptors is not waiting, but polls the input', async () => {
    const files = (targets: string) => ({
      '/proc/10/stat': stat(10, 1),
      '/proc/10/syscall': '232 0x3 0x7ffc 0x400 0xffffffff 0 0 0 0',
      '/proc/10/fdinfo/3': `pos:\t0\nflags:\t02\n${targets}`,
      '/proc/10/task/10/children': '',
    });
    const links = {
      '/proc/10/fd/0': '/dev/pts/3',
      '/proc/10/fd/17': '/dev/pts/3',
      '/proc/10/fd/4': 'anon_inode:[eventfd]',
    };
    const both = 'tfd:        4 events: 19 data: 0\ntfd:       17 events: 19 data: 0\n';
    expect(await kernelWaiting(pipe, fakeProc(files(both), links).fx)).toEqual({
      waiting: false,
      pollsInput: true,
    });
    const other = 'tfd:        4 events: 19 data: 0\n';
    expect(await kernelWaiting(pipe, fakeProc(files(other), links).fx)).toEqual({ waiting: false });
    // Only the input: that is a wait.
    const only = 'tfd:       17 events: 19 data: 0\n';
    expect(await kernelWaiting(pipe, fakeProc(files(only), links).fx)).toEqual({
      waiting: true,
      echo: true,
    });
  });

  it('fd 0 moved to /dev/tty (`read <&3`): the controlling terminal still names the input', async () => {
    const files = (tty: number) => ({
      '/proc/10/stat': stat(10, 1, tty),
      '/proc/10/syscall': '0 0x0 0x7ffc 0x1 0 0 0 0 0',
      '/proc/10/task/10/children': '',
    });
    const links = { '/proc/10/fd/0': '/dev/tty' };
    expect(await kernelWaiting(pipe, fakeProc(files(34819), links).fx)).toEqual({
      waiting: true,
      echo: true,
    });
    // No controlling terminal: a /dev/tty it cannot have is not ours.
    expect(await kernelWaiting(pipe, fakeProc(files(0), links).fx)).toEqual({ waiting: false });
  });

  it('a stdin that is neither a pipe, a socket nor a pts is not ours to watch', async () => {
    const { fx } = fakeProc(
      {
        '/proc/10/stat': stat(10, 1, 0),
        '/proc/10/syscall': '0 0x0 0x7ffc 0x1 0 0 0 0 0',
        '/proc/10/task/10/children': '',
      },
      { '/proc/10/fd/0': '/dev/null' },
    );
    expect(await kernelWaiting(pipe, fx)).toEqual({ waiting: false });
  });
});
