// kernelWaiting against fixtures of /proc: every blocking call it knows, per architecture, and
// the sessions whose input it must not claim. Memory reads past what a process mapped fail, as
// /proc/<pid>/mem does.
import { describe, expect, it } from 'vitest';
import { type KernelTarget, kernelWaiting, type ProcEffects } from '../../src/input-wait/kernel-detect.js';
import { pollfds } from './pollfds.js';

interface World {
  files: Record<string, string>;
  links: Record<string, string>;
  /** A process's mapped memory by `pid@hexaddress`: a read longer than the mapping fails. */
  memory?: Record<string, Uint8Array>;
  /** The terminal's echo flag; undefined: stty could not tell. */
  echo?: boolean | undefined;
}

function fakeProc(world: World) {
  const echoAsked: string[] = [];
  const read: string[] = [];
  const fx: ProcEffects = {
    readFile: async (path) => {
      read.push(path);
      return world.files[path];
    },
    readlink: async (path) => world.links[path],
    readMemory: async (pid, address, length) => {
      const mapped = world.memory?.[`${pid}@${address.toString(16)}`];
      return mapped === undefined || length > mapped.length ? undefined : mapped.slice(0, length);
    },
    terminalEcho: async (path) => {
      echoAsked.push(path);
      return 'echo' in world ? world.echo : true;
    },
  };
  return { fx, echoAsked, read };
}

// Fields after the name: state ppid pgrp session tty_nr tpgid. 34816 is /dev/pts/0.
const stat = (pid: number, state: string, ppid: number, pgrp: number, tpgid: number, tty = 34816) =>
  `${pid} (prog) ${state} ${ppid} ${pgrp} ${pgrp} ${tty} ${tpgid} 4194304 0 0`;
const pty = (arch = 'x64'): KernelTarget => ({ rootPid: 10, kind: 'pty', arch });
const pipe: KernelTarget = { rootPid: 10, kind: 'pipe', arch: 'x64' };
/** A lone terminal process (10) blocked in `syscall`. */
const alone = (syscall: string, extra: Record<string, string> = {}) => ({
  '/proc/10/stat': stat(10, 'S', 1, 10, 10),
  '/proc/10/syscall': syscall,
  '/proc/10/task/10/children': '',
  ...extra,
});
const onTerminal = { '/proc/10/fd/0': '/dev/pts/0' };

describe('every blocking call it knows, by architecture', () => {
  // [arch, call number, args, memory at 0x1000 when the call keeps its descriptors there, fdinfo]
  const epollInfo = { '/proc/10/fdinfo/3': 'pos:\t0\nflags:\t02\ntfd:        0 events: 19 data: 0\n' };
  const cases: [string, string, number, string, Uint8Array | undefined, Record<string, string>][] = [
    ['x64', 'read', 0, '0x0 0x7ffc 0x1', undefined, {}],
    ['x64', 'readv', 19, '0x0 0x7ffc 0x1', undefined, {}],
    ['x64', 'select', 23, '0x1 0x1000 0x0', Uint8Array.of(1), {}],
    ['x64', 'pselect6', 270, '0x1 0x1000 0x0', Uint8Array.of(1), {}],
    ['x64', 'poll', 7, '0x1000 0x1 0xffffffff', pollfds([0]), {}],
    ['x64', 'ppoll', 271, '0x1000 0x1 0x0', pollfds([0]), {}],
    ['x64', 'epoll_wait', 232, '0x3 0x7ffc 0x400', undefined, epollInfo],
    ['x64', 'epoll_pwait', 281, '0x3 0x7ffc 0x400', undefined, epollInfo],
    ['x64', 'epoll_pwait2', 441, '0x3 0x7ffc 0x400', undefined, epollInfo],
    ['arm64', 'read', 63, '0x0 0x7ffc 0x1', undefined, {}],
    ['arm64', 'readv', 65, '0x0 0x7ffc 0x1', undefined, {}],
    ['arm64', 'pselect6', 72, '0x1 0x1000 0x0', Uint8Array.of(1), {}],
    ['arm64', 'ppoll', 73, '0x1000 0x1 0x0', pollfds([0]), {}],
    ['arm64', 'epoll_pwait', 22, '0x3 0x7ffc 0x400', undefined, epollInfo],
    ['arm64', 'epoll_pwait2', 441, '0x3 0x7ffc 0x400', undefined, epollInfo],
  ];
  for (const [arch, name, nr, args, memory, extra] of cases) {
    it(`${arch} ${name} (${nr}) on the terminal is waiting`, async () => {
      const { fx } = fakeProc({
        files: alone(`${nr} ${args} 0x0 0x0 0x0 0x7ffc 0x7f00`, extra),
        links: onTerminal,
        memory: memory ? { '10@1000': memory } : {},
      });
      expect(await kernelWaiting(pty(arch), fx)).toEqual({ waiting: true, echo: true });
    });
  }

  it('arm64 numbers are not x64 ones: call 0, read on x64, is no read on arm64', async () => {
    const { fx } = fakeProc({ files: alone('0 0x0 0x7ffc 0x1 0 0 0 0 0'), links: onTerminal });
    // Call 0 on arm64 is io_setup.
    expect(await kernelWaiting(pty('arm64'), fx)).toEqual({ waiting: false });
  });

  it('an unknown architecture is not guessed at: null, even with a read on the terminal', async () => {
    const { fx } = fakeProc({ files: alone('0 0x0 0x7ffc 0x1 0 0 0 0 0'), links: onTerminal });
    expect(await kernelWaiting(pty('ppc64'), fx)).toBeNull();
  });
});

describe('select and poll read only the descriptors they were given', () => {
  it('select reads nfds bits, not what lies past them', async () => {
    // nfds 1: fd 0 only, though the set's byte also has bit 3 (a socket) set.
    const { fx } = fakeProc({
      files: alone('23 0x1 0x1000 0x0 0x0 0x0 0x7ffc 0 0'),
      links: { ...onTerminal, '/proc/10/fd/3': 'socket:[77]' },
      memory: { '10@1000': Uint8Array.of(0b1001) },
    });
    expect(await kernelWaiting(pty(), fx)).toEqual({ waiting: true, echo: true });
  });

  it('poll reads count entries, not the next one in memory', async () => {
    const { fx } = fakeProc({
      files: alone('7 0x1000 0x1 0xffffffff 0 0 0 0 0'),
      links: { ...onTerminal, '/proc/10/fd/3': 'socket:[77]' },
      memory: { '10@1000': pollfds([0, 3]) },
    });
    expect(await kernelWaiting(pty(), fx)).toEqual({ waiting: true, echo: true });
  });

  it('poll over the terminal and a socket polls the input but is not waiting', async () => {
    const { fx } = fakeProc({
      files: alone('271 0x1000 0x2 0x0 0 0 0 0 0'),
      links: { ...onTerminal, '/proc/10/fd/3': 'socket:[77]' },
      memory: { '10@1000': pollfds([0, 3]) },
    });
    expect(await kernelWaiting(pty(), fx)).toEqual({ waiting: false, pollsInput: true });
  });

  it('select with no descriptors (a sleep) is not waiting', async () => {
    const { fx } = fakeProc({ files: alone('23 0x0 0x0 0x0 0x0 0x7ffc 0 0 0'), links: onTerminal });
    expect(await kernelWaiting(pty(), fx)).toEqual({ waiting: false });
  });

  it('poll with no descriptors (a sleep), or an unreadable array, is not waiting', async () => {
    const sleeping = fakeProc({ files: alone('7 0x0 0x0 0x3e8 0 0 0 0 0'), links: onTerminal });
    expect(await kernelWaiting(pty(), sleeping.fx)).toEqual({ waiting: false });
    const unreadable = fakeProc({ files: alone('7 0x1000 0x1 0x3e8 0 0 0 0 0'), links: onTerminal });
    expect(await kernelWaiting(pty(), unreadable.fx)).toEqual({ waiting: false });
  });

  it('an epoll is read to 1,024 of the descriptors it watches, as poll is, and no further', async () => {
    // The terminal, then 1,999 sockets (a server that also reads its terminal).
    const targets = Array.from({ length: 2_000 }, (_, i) => `tfd: ${i + 3} events: 19 data: 0\n`);
    const links: Record<string, string> = { '/proc/10/fd/3': '/dev/pts/0' };
    for (let fd = 4; fd < 2_003; fd++) links[`/proc/10/fd/${fd}`] = `socket:[${fd}]`;
    const { fx } = fakeProc({
      files: alone('232 0x9 0x7ffc 0x400 0 0 0 0 0', { '/proc/10/fdinfo/9': targets.join('') }),
      links,
    });
    const asked: string[] = [];
    const counting: ProcEffects = {
      ...fx,
      readlink: async (path) => {
        asked.push(path);
        return fx.readlink(path);
      },
    };
    expect(await kernelWaiting(pty(), counting)).toEqual({ waiting: false, pollsInput: true });
    expect(asked.filter((path) => /^\/proc\/10\/fd\/\d+$/.test(path))).toHaveLength(1_024);
  });

  it('an epoll whose fdinfo cannot be read is not waiting', async () => {
    const { fx } = fakeProc({ files: alone('232 0x3 0x7ffc 0x400 0 0 0 0 0'), links: onTerminal });
    expect(await kernelWaiting(pty(), fx)).toEqual({ waiting: false });
  });
});

describe('the terminal of a PTY session', () => {
  it('a first process on a terminal that is no pty (a console) is not judged', async () => {
    // tty_nr 1025: /dev/tty1 (major 4); its foreground process reads /dev/tty.
    const { fx } = fakeProc({
      files: {
        '/proc/10/stat': stat(10, 'S', 1, 10, 10, 1025),
        '/proc/10/syscall': '0 0x3 0x7ffc 0x1 0 0 0 0 0',
        '/proc/10/task/10/children': '',
      },
      links: { '/proc/10/fd/0': '/dev/tty1', '/proc/10/fd/3': '/dev/tty' },
    });
    expect(await kernelWaiting(pty(), fx)).toEqual({ waiting: false });
  });

  it('a stopped job (Ctrl-Z) blocked in a read is not waiting', async () => {
    const { fx } = fakeProc({
      files: {
        '/proc/10/stat': stat(10, 'T', 1, 10, 10),
        '/proc/10/syscall': '0 0x0 0x7ffc 0x1 0 0 0 0 0',
        '/proc/10/task/10/children': '',
      },
      links: onTerminal,
    });
    expect(await kernelWaiting(pty(), fx)).toEqual({ waiting: false });
  });

  it('echo that stty cannot read counts as echoed', async () => {
    const { fx } = fakeProc({
      files: alone('0 0x0 0x7ffc 0x1 0 0 0 0 0'),
      links: onTerminal,
      echo: undefined,
    });
    expect(await kernelWaiting(pty(), fx)).toEqual({ waiting: true, echo: true });
  });
});

describe('when the kernel does not answer', () => {
  it('null when a sleeping process hides its call, though another one runs', async () => {
    const { fx } = fakeProc({
      files: {
        '/proc/10/stat': stat(10, 'R', 1, 10, 10),
        '/proc/10/task/10/children': '11',
        '/proc/11/stat': stat(11, 'S', 10, 10, 10),
        '/proc/11/task/11/children': '',
      },
      links: onTerminal,
    });
    expect(await kernelWaiting(pty(), fx)).toBeNull();
  });

  it('not waiting (an answer) when every process runs', async () => {
    const { fx } = fakeProc({
      files: { '/proc/10/stat': stat(10, 'R', 1, 10, 10), '/proc/10/task/10/children': '' },
      links: onTerminal,
    });
    expect(await kernelWaiting(pty(), fx)).toEqual({ waiting: false });
  });
});

describe('the process tree', () => {
  it('a child that exited between the listing and its stat is left out', async () => {
    const { fx } = fakeProc({
      files: {
        '/proc/10/stat': stat(10, 'S', 1, 10, 10),
        '/proc/10/syscall': '0 0x0 0x7ffc 0x1 0 0 0 0 0',
        '/proc/10/task/10/children': '11 12',
        '/proc/12/stat': stat(12, 'S', 10, 10, 10),
        '/proc/12/syscall': '61 0xffffffff 0 0 0 0 0 0 0',
      },
      links: onTerminal,
    });
    // 12's children file is gone too: it has none as far as anyone can tell.
    expect(await kernelWaiting(pty(), fx)).toEqual({ waiting: true, echo: true });
  });

  it('is read to 4096 processes and no further', async () => {
    // The first process has 4095 children; the first of them has a child reading the terminal.
    const children = Array.from({ length: 4095 }, (_, i) => 100 + i);
    const files: Record<string, string> = {
      '/proc/10/stat': stat(10, 'R', 1, 10, 10),
      '/proc/10/task/10/children': children.join(' '),
      '/proc/100/task/100/children': '9000',
      '/proc/9000/stat': stat(9000, 'S', 100, 10, 10),
      '/proc/9000/syscall': '0 0x0 0x7ffc 0x1 0 0 0 0 0',
    };
    for (const pid of children) files[`/proc/${pid}/stat`] = stat(pid, 'R', 10, 10, 10);
    const { fx, read } = fakeProc({ files, links: { '/proc/9000/fd/0': '/dev/pts/0' } });
    expect(await kernelWaiting(pty(), fx)).toEqual({ waiting: false });
    expect(read).not.toContain('/proc/9000/stat');
  });
});

describe('a pipe session', () => {
  it('a realistic socket inode (many digits) is our stdin', async () => {
    const { fx } = fakeProc({
      files: { ...alone('0 0x0 0x7ffc 0x1 0 0 0 0 0'), '/proc/10/stat': stat(10, 'S', 1, 10, -1, 0) },
      links: { '/proc/10/fd/0': 'socket:[4821377]' },
    });
    expect(await kernelWaiting(pipe, fx)).toEqual({ waiting: true, echo: true });
  });

  it('a file whose name looks like a pipe is a file, not our stdin', async () => {
    const { fx } = fakeProc({
      files: { ...alone('0 0x0 0x7ffc 0x1 0 0 0 0 0'), '/proc/10/stat': stat(10, 'S', 1, 10, -1, 0) },
      links: { '/proc/10/fd/0': '/tmp/pipe:[5]' },
    });
    expect(await kernelWaiting(pipe, fx)).toEqual({ waiting: false });
  });

  it('a pts stdin past pts/9 with no controlling terminal is the input, and its echo is asked', async () => {
    const { fx, echoAsked } = fakeProc({
      files: { ...alone('0 0x0 0x7ffc 0x1 0 0 0 0 0'), '/proc/10/stat': stat(10, 'S', 1, 10, -1, 0) },
      links: { '/proc/10/fd/0': '/dev/pts/12' },
      echo: false,
    });
    expect(await kernelWaiting(pipe, fx)).toEqual({ waiting: true, echo: false });
    expect(echoAsked).toEqual(['/dev/pts/12']);
  });

  it('a file under a directory named like dev/pts is no terminal', async () => {
    const { fx } = fakeProc({
      files: { ...alone('0 0x0 0x7ffc 0x1 0 0 0 0 0'), '/proc/10/stat': stat(10, 'S', 1, 10, -1, 0) },
      links: { '/proc/10/fd/0': '/tmp/dev/pts/3' },
    });
    expect(await kernelWaiting(pipe, fx)).toEqual({ waiting: false });
  });

  it('a stdin that is not ours is not waiting, even when the calls cannot be read', async () => {
    const { fx } = fakeProc({
      files: { '/proc/10/stat': stat(10, 'S', 1, 10, -1, 0), '/proc/10/task/10/children': '' },
      links: { '/proc/10/fd/0': '/dev/null' },
    });
    expect(await kernelWaiting(pipe, fx)).toEqual({ waiting: false });
  });

  it('a child reading /dev/tty of a console is not reading our input', async () => {
    const { fx } = fakeProc({
      files: {
        '/proc/10/stat': stat(10, 'S', 1, 10, -1, 0),
        '/proc/10/syscall': '61 0xffffffff 0 0 0 0 0 0 0',
        '/proc/10/task/10/children': '11',
        '/proc/11/stat': stat(11, 'S', 10, 11, 11, 1025),
        '/proc/11/syscall': '0 0x3 0x7ffc 0x1 0 0 0 0 0',
        '/proc/11/task/11/children': '',
      },
      links: { '/proc/10/fd/0': 'socket:[5]', '/proc/11/fd/3': '/dev/tty' },
    });
    expect(await kernelWaiting(pipe, fx)).toEqual({ waiting: false });
  });

  it('a descriptor closed before its link is read is not the terminal stdin', async () => {
    const { fx } = fakeProc({
      files: { ...alone('0 0x5 0x7ffc 0x1 0 0 0 0 0'), '/proc/10/stat': stat(10, 'S', 1, 10, -1, 0) },
      links: { '/proc/10/fd/0': '/dev/pts/12' },
    });
    expect(await kernelWaiting(pipe, fx)).toEqual({ waiting: false });
  });

  it('a socket stdin has no terminal: echo is not asked, and counts as on', async () => {
    const { fx, echoAsked } = fakeProc({
      files: { ...alone('0 0x0 0x7ffc 0x1 0 0 0 0 0'), '/proc/10/stat': stat(10, 'S', 1, 10, -1, 0) },
      links: { '/proc/10/fd/0': 'socket:[5]' },
      echo: false,
    });
    expect(await kernelWaiting(pipe, fx)).toEqual({ waiting: true, echo: true });
    expect(echoAsked).toEqual([]);
  });
});
