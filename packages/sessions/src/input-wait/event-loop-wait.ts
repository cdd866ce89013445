// An event loop on a terminal (Node's REPL) waits in epoll over the terminal and descriptors
// of its own: the wake-up eventfd its threads signal, the pipe its signal handler writes. gdb
// waits the same way in poll, beside four pipes whose both ends it holds; a prompt_toolkit
// prompt (IPython) in epoll beside asyncio's socket pair, on a 500 ms timer that prints
// nothing. Such a wait is a wait for input as much as a read is. A descriptor the outside
// world can make ready (a socket to another process, another process's pipe, a file watch, a
// timerfd) means the program waits for that too: ssh relaying, script, a watcher's "press q
// to quit".
import type { ProcEffects } from './proc-effects.js';
import type { BlockedCall } from './procfs.js';

/** The multiplexed waits: each takes its timeout in its own way. */
export type MultiplexKind = 'select' | 'pselect' | 'poll' | 'ppoll' | 'epoll';

/**
 * A wait whose own timer is due sooner than this is a program at work (a spinner), not asking,
 * until the session has been quiet this long (no output, no input written): then the timer wakes
 * it to do nothing a person sees (prompt_toolkit looks at the terminal's size every 500 ms).
 */
export const SELF_WAKE_MIN_TIMEOUT_MS = 1_000;

const EPOLL_PWAIT2 = 441;
const OWN_WAKE_UP = /^anon_inode:\[(eventfd|signalfd)\]$/;
const PIPE = /^pipe:\[\d+\]$/;
const SOCKET = /^socket:\[(\d+)\]$/;
const O_ACCMODE = 3;
const O_WRONLY = 1;
// Descriptors read to find a pipe's write end; a process with more is not judged (each costs
// a readlink, on every check).
const MAX_FDS = 1_024;

type LoopEffects = Pick<ProcEffects, 'readFile' | 'readlink' | 'readMemory' | 'listDir' | 'unixPeer'>;

/** A descriptor a blocked call watches, with where it points (undefined: unreadable). */
export interface WatchedFd {
  fd: number;
  link: string | undefined;
}

/**
 * Whether a multiplexed wait of `pid` that watches the input among `others` waits only for the
 * input: each of the others is one only the process itself makes ready (a pipe or a socket
 * pair whose other end it holds), and no timer of its own is due within
 * SELF_WAKE_MIN_TIMEOUT_MS unless the session has been quiet that long (`quietMs`: no output
 * and no input written; unknown: not). `call` is the blocked call, of `kind`.
 */
export async function waitsOnlyForInput(
  pid: number,
  kind: MultiplexKind,
  call: BlockedCall,
  others: readonly WatchedFd[],
  fx: LoopEffects,
  quietMs?: number,
): Promise<boolean> {
  const timeout = await waitTimeoutMs(pid, kind, call, fx);
  if (timeout === null) return false;
  const soon = timeout !== undefined && timeout < SELF_WAKE_MIN_TIMEOUT_MS;
  if (soon && !(quietMs !== undefined && quietMs >= SELF_WAKE_MIN_TIMEOUT_MS)) return false;
  let links: Map<string, string[]> | undefined;
  for (const { fd, link } of others) {
    if (link === undefined) return false;
    if (OWN_WAKE_UP.test(link)) continue;
    const socket = SOCKET.exec(link);
    if (socket) {
      const peer = await fx.unixPeer?.(Number(socket[1]));
      if (peer === undefined) return false;
      links ??= await linksOf(pid, fx);
      if (!links.has(`socket:[${peer}]`)) return false;
      continue;
    }
    if (!PIPE.test(link)) return false;
    links ??= await linksOf(pid, fx);
    if (!(await holdsWriteEnd(pid, fd, links.get(link) ?? [], fx))) return false;
  }
  return true;
}

/**
 * A multiplexed call's timeout in ms: undefined for none (it blocks until an event), null when
 * it cannot be read. poll, epoll_wait and epoll_pwait take an int (negative: none); ppoll,
 * pselect6 and epoll_pwait2 a pointer to a timespec, select to a timeval (NULL: none).
 */
export async function waitTimeoutMs(
  pid: number,
  kind: MultiplexKind,
  call: BlockedCall,
  fx: Pick<LoopEffects, 'readMemory'>,
): Promise<number | undefined | null> {
  switch (kind) {
    case 'poll':
      return intMs(call.args[2]);
    case 'epoll':
      return call.nr === EPOLL_PWAIT2 ? timeAt(pid, call.args[3], 1e6, fx) : intMs(call.args[3]);
    case 'ppoll':
      return timeAt(pid, call.args[2], 1e6, fx);
    case 'pselect':
      return timeAt(pid, call.args[4], 1e6, fx);
    case 'select':
      return timeAt(pid, call.args[4], 1e3, fx);
  }
}

/** An int timeout argument in ms; negative for none. */
function intMs(arg = 0n): number | undefined {
  const ms = BigInt.asIntN(32, arg);
  return ms < 0n ? undefined : Number(ms);
}

/** A timespec or timeval at `address` (its second field counts `perMs` to the ms); NULL for none. */
async function timeAt(
  pid: number,
  address: bigint | undefined,
  perMs: number,
  fx: Pick<LoopEffects, 'readMemory'>,
): Promise<number | undefined | null> {
  if (address === undefined || address === 0n) return undefined;
  const spec = await fx.readMemory(pid, address, 16);
  if (!spec) return null;
  const view = new DataView(spec.buffer, spec.byteOffset, spec.byteLength);
  return Number(view.getBigInt64(0, true)) * 1000 + Number(view.getBigInt64(8, true)) / perMs;
}

/** The process's descriptors by what they point to; empty when they cannot be listed or are too many. */
async function linksOf(pid: number, fx: LoopEffects): Promise<Map<string, string[]>> {
  const links = new Map<string, string[]>();
  const names = await fx.listDir?.(`/proc/${pid}/fd`);
  if (!names || names.length > MAX_FDS) return links;
  for (const name of names) {
    const link = await fx.readlink(`/proc/${pid}/fd/${name}`);
    if (link === undefined) continue;
    const same = links.get(link);
    if (same) same.push(name);
    else links.set(link, [name]);
  }
  return links;
}

/** Whether another of the descriptors on the pipe `fd` reads (`names`) is its write end. */
async function holdsWriteEnd(
  pid: number,
  fd: number,
  names: readonly string[],
  fx: LoopEffects,
): Promise<boolean> {
  for (const name of names) {
    if (name === String(fd)) continue;
    const flags = /^flags:\s+([0-7]+)$/m.exec((await fx.readFile(`/proc/${pid}/fdinfo/${name}`)) ?? '');
    if (flags && (Number.parseInt(flags[1]!, 8) & O_ACCMODE) === O_WRONLY) return true;
  }
  return false;
}
