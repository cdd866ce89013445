import { type MultiplexKind, type WatchedFd, waitsOnlyForInput } from './event-loop-wait.js';
import type { ProcEffects } from './proc-effects.js';
import {
  type BlockedCall,
  epollTargets,
  fdSetMembers,
  type ProcStat,
  parseStat,
  parseSyscall,
  pollReaders,
  ptsPath,
} from './procfs.js';

export type { ProcEffects };

/** Kinds of blocking calls that can wait on a descriptor, by number per architecture. */
type CallKind = 'read' | MultiplexKind;

const SYSCALLS: Record<string, Record<number, CallKind>> = {
  x64: {
    0: 'read',
    19: 'read',
    23: 'select',
    270: 'pselect',
    7: 'poll',
    271: 'ppoll',
    232: 'epoll',
    281: 'epoll',
    441: 'epoll',
  },
  arm64: { 63: 'read', 65: 'read', 72: 'pselect', 73: 'ppoll', 22: 'epoll', 441: 'epoll' },
};

/**
 * The kernel's answer: null when the detector cannot see (no /proc access): use the heuristic.
 * `pollsInput`: not waiting, but a process polls the input among other descriptors (an event
 * loop such as Node's epoll): it may be waiting in a way these checks cannot confirm.
 */
export type KernelVerdict = { waiting: false; pollsInput?: true } | { waiting: true; echo: boolean } | null;

export interface KernelTarget {
  /** The session's first process. */
  rootPid: number;
  kind: 'pty' | 'pipe';
  /** process.arch: syscall numbers differ per architecture. */
  arch: string;
  /**
   * How long the session has been quiet, no output and no input written, if known (an event
   * loop's short timer, event-loop-wait.ts).
   */
  quietMs?: number;
}

/**
 * Whether a session's program is blocked reading its input, asked of the kernel.
 * PTY: a process of the terminal's foreground process group blocked in a read (or a
 * select/poll/epoll) on the session's terminal. Pipes: a process of the tree blocked reading
 * the stdin pipe (or socket pair) procmux gave the first process. A server in accept, a sleep, a busy loop, a
 * read of another file or socket, or a shell whose foreground child still runs is not waiting.
 */
export async function kernelWaiting(target: KernelTarget, fx: ProcEffects): Promise<KernelVerdict> {
  const calls = SYSCALLS[target.arch];
  if (!calls) return null;
  const root = await readStat(target.rootPid, fx);
  if (!root) return null;
  let isInput: (link: string, stat: ProcStat) => boolean;
  let candidates: ProcStat[];
  // The terminal whose echo flag tells a password prompt, if the input is one.
  let terminal: string | undefined;
  const tree = await processTree(root, fx);
  if (target.kind === 'pty') {
    const pts = ptsPath(root.ttyNr);
    if (!pts || root.tpgid <= 0) return { waiting: false };
    isInput = (link, stat) => link === pts || (link === '/dev/tty' && stat.ttyNr === root.ttyNr);
    candidates = tree.filter((p) => p.pgrp === root.tpgid);
    terminal = pts;
  } else {
    // Node gives a child's stdio as Unix socket pairs (libuv), other hosts as pipes.
    // A terminal stdin (stdin 'terminal') counts too, and /dev/tty when it is that terminal.
    // A pipe session's process has a controlling terminal only through such a stdin (bash
    // makes it its own), which still names it once a redirection moved fd 0 (`read <&3`).
    const stdin = await fx.readlink(`/proc/${root.pid}/fd/0`);
    const pipe = stdin !== undefined && /^(pipe|socket):\[\d+\]$/.test(stdin) ? stdin : undefined;
    terminal = stdin !== undefined && /^\/dev\/pts\/\d+$/.test(stdin) ? stdin : ptsPath(root.ttyNr);
    if (pipe === undefined && terminal === undefined) return { waiting: false };
    isInput = (link, stat) =>
      link === pipe ||
      (terminal !== undefined &&
        (link === terminal || (link === '/dev/tty' && ptsPath(stat.ttyNr) === terminal)));
    candidates = tree;
  }
  let sawSyscall = false;
  let pollsInput = false;
  for (const proc of candidates) {
    if (proc.state !== 'S') continue;
    const text = await fx.readFile(`/proc/${proc.pid}/syscall`);
    if (text === undefined) continue;
    sawSyscall = true;
    const call = parseSyscall(text);
    const kind = call && calls[call.nr];
    if (!call || !kind) continue;
    const fds = await watchedFds(proc.pid, kind, call, fx);
    // A multiplexed wait counts only when every descriptor it watches is the input (ssh or
    // script polling their input and a socket are busy relaying, not asking), or, on a
    // terminal, when the others are an event loop's own wake-ups (event-loop-wait.ts).
    let inputs = 0;
    const others: WatchedFd[] = [];
    for (const fd of fds) {
      const link = await fx.readlink(`/proc/${proc.pid}/fd/${fd}`);
      if (link !== undefined && isInput(link, proc)) inputs++;
      else others.push({ fd, link });
    }
    if (inputs === 0) continue;
    // On a terminal, an event loop's own wake-ups beside the input do not make it busy (Node's
    // REPL in epoll, gdb in poll).
    const loopWait =
      others.length > 0 &&
      target.kind === 'pty' &&
      kind !== 'read' &&
      (await waitsOnlyForInput(proc.pid, kind, call, others, fx, target.quietMs));
    if (others.length === 0 || loopWait) {
      const echo = terminal === undefined ? true : await fx.terminalEcho(terminal);
      return { waiting: true, echo: echo ?? true };
    }
    pollsInput = true;
  }
  // Sleeping processes whose calls could not be read: the kernel did not answer.
  if (!sawSyscall && candidates.some((p) => p.state === 'S')) return null;
  return pollsInput ? { waiting: false, pollsInput: true } : { waiting: false };
}

async function readStat(pid: number, fx: ProcEffects): Promise<ProcStat | undefined> {
  const text = await fx.readFile(`/proc/${pid}/stat`);
  return text === undefined ? undefined : parseStat(text);
}

/** The root and its descendants, through each thread's children list. */
async function processTree(root: ProcStat, fx: ProcEffects): Promise<ProcStat[]> {
  const found: ProcStat[] = [root];
  const seen = new Set([root.pid]);
  for (let i = 0; i < found.length && found.length < 4096; i++) {
    const pid = found[i]!.pid;
    const children = (await fx.readFile(`/proc/${pid}/task/${pid}/children`)) ?? '';
    for (const child of children.trim().split(/\s+/)) {
      const childPid = Number(child);
      if (child === '' || seen.has(childPid)) continue;
      seen.add(childPid);
      const stat = await readStat(childPid, fx);
      if (stat) found.push(stat);
    }
  }
  return found;
}

// Descriptors of one poll or epoll wait looked at: each costs a readlink, on a check that
// repeats every 50 ms while someone waits. A wait over more is a server's, not a prompt's.
const MAX_WATCHED_FDS = 1_024;

/** The descriptors a blocked call waits to read: the argument, or read from its memory. */
async function watchedFds(
  pid: number,
  kind: CallKind,
  call: BlockedCall,
  fx: ProcEffects,
): Promise<number[]> {
  const [a0 = 0n, a1 = 0n] = call.args;
  switch (kind) {
    case 'read':
      return [Number(a0)];
    case 'select':
    case 'pselect': {
      const nfds = Math.min(Number(a0), 4096);
      if (a1 === 0n || nfds <= 0) return [];
      const bits = await fx.readMemory(pid, a1, Math.ceil(nfds / 8));
      return bits ? fdSetMembers(bits, nfds) : [];
    }
    case 'poll':
    case 'ppoll': {
      const count = Math.min(Number(a1), MAX_WATCHED_FDS);
      if (a0 === 0n || count <= 0) return [];
      const bytes = await fx.readMemory(pid, a0, count * 8);
      return bytes ? pollReaders(bytes, count) : [];
    }
    case 'epoll': {
      const info = await fx.readFile(`/proc/${pid}/fdinfo/${Number(a0)}`);
      return info ? epollTargets(info).slice(0, MAX_WATCHED_FDS) : [];
    }
  }
}
