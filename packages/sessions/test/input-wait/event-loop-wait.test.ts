// An event loop on a terminal (Node's REPL) waits in epoll over the terminal and its own
// wake-ups; against fixtures of /proc: which other descriptors and timers leave that a wait
// for input, and which make it a program waiting for something else too.
import { describe, expect, it } from 'vitest';
import { SELF_WAKE_MIN_TIMEOUT_MS, waitTimeoutMs } from '../../src/input-wait/event-loop-wait.js';
import { type KernelTarget, kernelWaiting } from '../../src/input-wait/kernel-detect.js';
import type { ProcEffects } from '../../src/input-wait/proc-effects.js';
import { pollfds } from './pollfds.js';

const pty: KernelTarget = { rootPid: 10, kind: 'pty', arch: 'x64' };
const pipes: KernelTarget = { rootPid: 10, kind: 'pipe', arch: 'x64' };

// Fields after the name: state ppid pgrp session tty_nr tpgid. 34816 is /dev/pts/0.
const STAT = '10 (node) S 1 10 10 34816 10 4194304 0 0';
// What Node's REPL had (node 20): its signal pipe (14 → write end 15), its wake-up eventfd,
// and the terminal.
const REPL_LINKS: Record<string, string> = {
  '/proc/10/fd/0': '/dev/pts/0',
  '/proc/10/fd/14': 'pipe:[900]',
  '/proc/10/fd/15': 'pipe:[900]',
  '/proc/10/fd/16': 'anon_inode:[eventfd]',
  '/proc/10/fd/20': '/dev/pts/0',
};
const fdinfo = (flags: string) => `pos:\t0\nflags:\t${flags}\nmnt_id:\t15\n`;
const REPL_INFO = {
  '/proc/10/fdinfo/14': fdinfo('02000000'),
  '/proc/10/fdinfo/15': fdinfo('02000001'),
};

interface World {
  /** The epoll call's line in /proc/10/syscall (epoll fd 13). */
  syscall: string;
  /** The descriptors the epoll watches. */
  watched: number[];
  links?: Record<string, string>;
  files?: Record<string, string>;
  memory?: Record<string, Uint8Array>;
  listDir?: boolean;
  /** The peer of each Unix socket by inode, as the socket diagnostics tell it (absent: cannot ask). */
  peers?: Record<number, number>;
}

function fakeProc(world: World): ProcEffects {
  const links = world.links ?? REPL_LINKS;
  const files: Record<string, string> = {
    '/proc/10/stat': STAT,
    '/proc/10/syscall': world.syscall,
    '/proc/10/task/10/children': '',
    '/proc/10/fdinfo/13': `pos:\t0\nflags:\t02\n${world.watched.map((fd) => `tfd: ${fd} events: 19 data: 0\n`).join('')}`,
    ...REPL_INFO,
    ...world.files,
  };
  const fds = Object.keys(links).map((path) => path.slice('/proc/10/fd/'.length));
  return {
    readFile: async (path) => files[path],
    readlink: async (path) => links[path],
    readMemory: async (pid, address, length) => {
      const mapped = world.memory?.[`${pid}@${address.toString(16)}`];
      return mapped === undefined || length > mapped.length ? undefined : mapped.slice(0, length);
    },
    terminalEcho: async () => true,
    ...(world.peers ? { unixPeer: async (inode: number) => world.peers?.[inode] } : {}),
    ...(world.listDir === false
      ? {}
      : { listDir: async (path: string) => (path === '/proc/10/fd' ? fds : undefined) }),
  };
}

// epoll_pwait (281) with the timeout in its fourth argument; -1 (none) unless given.
const pwait = (timeout = '0xffffffff') => `281 0xd 0x7ffc 0x400 ${timeout} 0x0 0x8 0x7ffc 0x7f00`;
const timespec = (seconds: number, nanos: number) => {
  const bytes = new Uint8Array(16);
  const view = new DataView(bytes.buffer);
  view.setBigInt64(0, BigInt(seconds), true);
  view.setBigInt64(8, BigInt(nanos), true);
  return bytes;
};

describe("an event loop's wait on a terminal", () => {
  it("Node's REPL (the terminal, its signal pipe, its eventfd) is waiting for input", async () => {
    const fx = fakeProc({ syscall: pwait(), watched: [14, 16, 20] });
    expect(await kernelWaiting(pty, fx)).toEqual({ waiting: true, echo: true });
  });

  it('a timer of its own due after SELF_WAKE_MIN_TIMEOUT_MS still waits (the REPL had 8,089 ms)', async () => {
    const fx = fakeProc({ syscall: pwait('0x1f99'), watched: [14, 16, 20] });
    expect(await kernelWaiting(pty, fx)).toEqual({ waiting: true, echo: true });
    const atTheLine = fakeProc({
      syscall: pwait(`0x${SELF_WAKE_MIN_TIMEOUT_MS.toString(16)}`),
      watched: [14, 16, 20],
    });
    expect(await kernelWaiting(pty, atTheLine)).toEqual({ waiting: true, echo: true });
  });

  it('a timer due sooner (a spinner) is a program at work: it polls the input, it is not waiting', async () => {
    const fx = fakeProc({
      syscall: pwait(`0x${(SELF_WAKE_MIN_TIMEOUT_MS - 1).toString(16)}`),
      watched: [14, 16, 20],
    });
    expect(await kernelWaiting(pty, fx)).toEqual({ waiting: false, pollsInput: true });
  });

  // IPython 8.12 (prompt_toolkit 3.0) at `In [1]:`: epoll_wait over the terminal and one end of
  // asyncio's wake-up socket pair (the other end its own too), timeout 499 or 500 ms (it looks at
  // the terminal's size every 500 ms).
  const ASYNCIO_LINKS: Record<string, string> = {
    '/proc/10/fd/0': '/dev/pts/0',
    '/proc/10/fd/6': 'socket:[9197603]',
    '/proc/10/fd/7': 'socket:[9197604]',
    '/proc/10/fd/9': 'socket:[9197605]',
    '/proc/10/fd/11': 'socket:[9197606]',
  };
  const PAIRS = { 9197603: 9197604, 9197604: 9197603, 9197605: 9197606, 9197606: 9197605 };
  const epollWait = (timeout: string) => `232 0xd 0x7ffc 0x2 ${timeout} 0x0 0x0 0x7ffc 0x7f00`;
  const { '/proc/10/fd/7': _, ...ONE_END } = ASYNCIO_LINKS;
  /** IPython's wait: `timeout` (none unless given), `links` (both ends its own unless given), `peers` (none: cannot ask). */
  const asyncioWait = (
    options: { timeout?: string; links?: Record<string, string>; peers?: Record<number, number> } = {},
  ) =>
    fakeProc({
      syscall: epollWait(options.timeout ?? '0xffffffff'),
      watched: [0, 6],
      links: options.links ?? ASYNCIO_LINKS,
      ...('peers' in options ? { peers: options.peers } : { peers: PAIRS }),
    });
  const notWaiting = { waiting: false, pollsInput: true };

  it('a socket pair whose both ends it holds (asyncio) is its own wake-up', async () => {
    expect(await kernelWaiting(pty, asyncioWait())).toEqual({ waiting: true, echo: true });
    // Its other end another process's (a relay, a server's connection): the outside world.
    expect(await kernelWaiting(pty, asyncioWait({ links: ONE_END }))).toEqual(notWaiting);
    // No peer known (a TCP socket; a machine without ss): not taken for its own.
    expect(await kernelWaiting(pty, asyncioWait({ peers: {} }))).toEqual(notWaiting);
    expect(await kernelWaiting(pty, asyncioWait({ peers: undefined }))).toEqual(notWaiting);
  });

  it('a timer due sooner counts once the output has been quiet SELF_WAKE_MIN_TIMEOUT_MS (IPython at its prompt)', async () => {
    const fx = asyncioWait({ timeout: '0x1f3' });
    const quiet = (quietMs: number) => ({ ...pty, quietMs });
    expect(await kernelWaiting(quiet(SELF_WAKE_MIN_TIMEOUT_MS), fx)).toEqual({ waiting: true, echo: true });
    expect(await kernelWaiting(quiet(SELF_WAKE_MIN_TIMEOUT_MS - 1), fx)).toEqual(notWaiting);
    expect(await kernelWaiting(pty, fx)).toEqual(notWaiting);
    // Quiet or not, the outside world among its descriptors still means it waits for that too.
    const relayed = asyncioWait({ timeout: '0x1f3', links: ONE_END });
    expect(await kernelWaiting(quiet(60_000), relayed)).toEqual(notWaiting);
  });

  it('a pipe whose write end another process holds is the outside world: not waiting', async () => {
    const { '/proc/10/fd/15': _, ...readEndOnly } = REPL_LINKS;
    expect(
      await kernelWaiting(pty, fakeProc({ syscall: pwait(), watched: [14, 16, 20], links: readEndOnly })),
    ).toEqual({ waiting: false, pollsInput: true });
    // Both ends listed as read ends (a dup of the read end) is no write end either.
    const dup = fakeProc({
      syscall: pwait(),
      watched: [14, 16, 20],
      files: { '/proc/10/fdinfo/15': fdinfo('02000000') },
    });
    expect(await kernelWaiting(pty, dup)).toEqual({ waiting: false, pollsInput: true });
    // Without a way to list the descriptors, the pipe is not taken for its own.
    expect(
      await kernelWaiting(pty, fakeProc({ syscall: pwait(), watched: [14, 16, 20], listDir: false })),
    ).toEqual({
      waiting: false,
      pollsInput: true,
    });
  });

  it('a socket, a file watch, a timerfd or an unreadable descriptor beside the terminal: not waiting', async () => {
    for (const other of ['socket:[77]', 'anon_inode:inotify', 'anon_inode:[timerfd]', undefined]) {
      const links: Record<string, string> = { ...REPL_LINKS };
      if (other === undefined) delete links['/proc/10/fd/16'];
      else links['/proc/10/fd/16'] = other;
      expect(await kernelWaiting(pty, fakeProc({ syscall: pwait(), watched: [14, 16, 20], links }))).toEqual({
        waiting: false,
        pollsInput: true,
      });
    }
  });

  it('a process with more than 1,024 descriptors is not searched for the write end: not waiting', async () => {
    // Each descriptor costs a readlink on every check; the REPL had 22.
    const padded = (count: number) => {
      const links: Record<string, string> = { ...REPL_LINKS };
      for (let fd = 100; Object.keys(links).length < count; fd++) links[`/proc/10/fd/${fd}`] = '/dev/null';
      return links;
    };
    const at = fakeProc({ syscall: pwait(), watched: [14, 16, 20], links: padded(1_024) });
    expect(await kernelWaiting(pty, at)).toEqual({ waiting: true, echo: true });
    const over = fakeProc({ syscall: pwait(), watched: [14, 16, 20], links: padded(1_025) });
    expect(await kernelWaiting(pty, over)).toEqual({ waiting: false, pollsInput: true });
  });

  it('a signalfd is its own wake-up too', async () => {
    const links = { ...REPL_LINKS, '/proc/10/fd/16': 'anon_inode:[signalfd]' };
    expect(await kernelWaiting(pty, fakeProc({ syscall: pwait(), watched: [16, 20], links }))).toEqual({
      waiting: true,
      echo: true,
    });
  });

  // gdb 13 at its prompt: poll(fds, 5, -1) over the terminal and four pipes whose both ends it
  // holds (what its worker threads and signal handlers write to wake it).

  it('a poll over the terminal and its own pipe and eventfd (gdb) is waiting; with a timer due soon it is not', async () => {
    const fx = (timeout: string) =>
      fakeProc({
        syscall: `7 0x1000 0x3 ${timeout} 0 0 0 0 0`,
        watched: [],
        memory: { '10@1000': pollfds([20, 14, 16]) },
      });
    expect(await kernelWaiting(pty, fx('0xffffffff'))).toEqual({ waiting: true, echo: true });
    expect(await kernelWaiting(pty, fx('0x1f99'))).toEqual({ waiting: true, echo: true });
    expect(await kernelWaiting(pty, fx(`0x${(SELF_WAKE_MIN_TIMEOUT_MS - 1).toString(16)}`))).toEqual({
      waiting: false,
      pollsInput: true,
    });
    // The pipe's write end another process's: the outside world.
    const { '/proc/10/fd/15': _, ...readEndOnly } = REPL_LINKS;
    const relayed = fakeProc({
      syscall: '7 0x1000 0x3 0xffffffff 0 0 0 0 0',
      watched: [],
      memory: { '10@1000': pollfds([20, 14, 16]) },
      links: readEndOnly,
    });
    expect(await kernelWaiting(pty, relayed)).toEqual({ waiting: false, pollsInput: true });
  });

  it('ppoll, pselect6 and select read their timeout from memory: a timespec, a timeval', async () => {
    // fds 14 (its own pipe) and 20 (the terminal) in an fd_set: bit n of byte n >> 3.
    const fdSet = new Uint8Array(8);
    for (const fd of [14, 20]) fdSet[fd >> 3]! |= 1 << (fd & 7);
    // A timeval is laid out as a timespec, its second field in microseconds.
    const timeval = (seconds: number, micros: number) => timespec(seconds, micros);
    const cases: [string, string, Record<string, Uint8Array>, boolean][] = [
      // ppoll(fds, 2, NULL): none.
      ['ppoll', '271 0x1000 0x2 0x0 0x0 0x8 0 0 0', { '10@1000': pollfds([20, 14]) }, true],
      // ppoll with 5 s; with 0.2 s.
      [
        'ppoll',
        '271 0x1000 0x2 0x2000 0x0 0x8 0 0 0',
        { '10@1000': pollfds([20, 14]), '10@2000': timespec(5, 0) },
        true,
      ],
      [
        'ppoll',
        '271 0x1000 0x2 0x2000 0x0 0x8 0 0 0',
        { '10@1000': pollfds([20, 14]), '10@2000': timespec(0, 200_000_000) },
        false,
      ],
      // pselect6(21, readfds, NULL, NULL, timespec): 0.2 s; none.
      [
        'pselect6',
        '270 0x15 0x1000 0x0 0x0 0x2000 0 0 0',
        { '10@1000': fdSet, '10@2000': timespec(0, 200_000_000) },
        false,
      ],
      ['pselect6', '270 0x15 0x1000 0x0 0x0 0x0 0 0 0', { '10@1000': fdSet }, true],
      // select(21, readfds, NULL, NULL, timeval): 0.5 s in microseconds; 2 s.
      [
        'select',
        '23 0x15 0x1000 0x0 0x0 0x2000 0 0 0',
        { '10@1000': fdSet, '10@2000': timeval(0, 500_000) },
        false,
      ],
      ['select', '23 0x15 0x1000 0x0 0x0 0x2000 0 0 0', { '10@1000': fdSet, '10@2000': timeval(2, 0) }, true],
      // A timeout that cannot be read is no proof of a wait.
      ['select', '23 0x15 0x1000 0x0 0x0 0x3000 0 0 0', { '10@1000': fdSet }, false],
    ];
    for (const [name, syscall, memory, waiting] of cases) {
      const verdict = await kernelWaiting(pty, fakeProc({ syscall, watched: [], memory }));
      expect({ name, syscall, verdict }).toEqual({
        name,
        syscall,
        verdict: waiting ? { waiting: true, echo: true } : { waiting: false, pollsInput: true },
      });
    }
  });

  it('on pipes the same wait still only polls its stdin (a one-shot gets end of input, as before)', async () => {
    const links = { ...REPL_LINKS, '/proc/10/fd/0': 'pipe:[5]', '/proc/10/fd/20': 'pipe:[5]' };
    const fx = fakeProc({ syscall: pwait(), watched: [14, 16, 20], links });
    expect(await kernelWaiting(pipes, fx)).toEqual({ waiting: false, pollsInput: true });
  });
});

describe('waitTimeoutMs', () => {
  const call = (nr: number, timeout: bigint) => ({ nr, args: [13n, 0x7ffcn, 0x400n, timeout] });
  const memory = (bytes?: Uint8Array) => ({
    readMemory: async (_pid: number, address: bigint) => (address === 0x2000n ? bytes : undefined),
  });

  it('epoll_wait and epoll_pwait: an int, negative for none', async () => {
    expect(await waitTimeoutMs(10, 'epoll', call(232, 0xffffffffn), memory())).toBeUndefined();
    expect(await waitTimeoutMs(10, 'epoll', call(281, 0xffffffffffffffffn), memory())).toBeUndefined();
    expect(await waitTimeoutMs(10, 'epoll', call(281, 250n), memory())).toBe(250);
    expect(await waitTimeoutMs(10, 'epoll', call(281, 0n), memory())).toBe(0);
  });

  it('epoll_pwait2: a timespec read from memory, NULL for none, null when unreadable', async () => {
    expect(await waitTimeoutMs(10, 'epoll', call(441, 0n), memory())).toBeUndefined();
    expect(await waitTimeoutMs(10, 'epoll', call(441, 0x2000n), memory(timespec(5, 500_000_000)))).toBe(
      5_500,
    );
    expect(await waitTimeoutMs(10, 'epoll', call(441, 0x2000n), memory(timespec(0, 200_000_000)))).toBe(200);
    expect(await waitTimeoutMs(10, 'epoll', call(441, 0x3000n), memory(timespec(5, 0)))).toBeNull();
  });

  it('an epoll_pwait2 whose timespec cannot be read is not taken for a wait for input', async () => {
    const fx = fakeProc({ syscall: '441 0xd 0x7ffc 0x400 0x3000 0x0 0x8 0 0', watched: [14, 16, 20] });
    expect(await kernelWaiting(pty, fx)).toEqual({ waiting: false, pollsInput: true });
    const none = fakeProc({ syscall: '441 0xd 0x7ffc 0x400 0x0 0x0 0x8 0 0', watched: [14, 16, 20] });
    expect(await kernelWaiting(pty, none)).toEqual({ waiting: true, echo: true });
  });
});
