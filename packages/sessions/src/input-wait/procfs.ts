/**
 * Parsing of Linux /proc files, pure so it is tested on any machine. Field numbers are those
 * of proc(5).
 */

export interface ProcStat {
  pid: number;
  /** One letter: R running, S sleeping, D disk, T stopped, Z zombie, ... */
  state: string;
  ppid: number;
  pgrp: number;
  session: number;
  /** Controlling terminal as a device number (0: none). */
  ttyNr: number;
  /** Foreground process group of the controlling terminal (-1: none). */
  tpgid: number;
}

/** /proc/<pid>/stat; the command name in parentheses may hold spaces and parentheses. */
export function parseStat(text: string): ProcStat | undefined {
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  if (open < 0 || close < open) return undefined;
  const pid = Number(text.slice(0, open).trim());
  const rest = text
    .slice(close + 2)
    .trim()
    .split(/\s+/);
  if (rest.length < 6 || !Number.isInteger(pid)) return undefined;
  // Six fields at least, checked above.
  const [state, ppid, pgrp, session, ttyNr, tpgid] = rest as [string, string, string, string, string, string];
  return {
    pid,
    state,
    ppid: Number(ppid),
    pgrp: Number(pgrp),
    session: Number(session),
    ttyNr: Number(ttyNr),
    tpgid: Number(tpgid),
  };
}

/** A blocked system call: its number and arguments, from /proc/<pid>/syscall. */
export interface BlockedCall {
  nr: number;
  args: readonly bigint[];
}

/** "running", "-1 ..." (not in a call) and unreadable text are undefined. */
export function parseSyscall(text: string): BlockedCall | undefined {
  const parts = text.trim().split(/\s+/);
  const nr = Number(parts[0]);
  if (parts[0] === 'running' || !Number.isInteger(nr) || nr < 0) return undefined;
  try {
    return { nr, args: parts.slice(1, 7).map((a) => BigInt(a)) };
  } catch {
    return undefined;
  }
}

/**
 * The /dev path of a pseudo-terminal from its device number (tty_nr): Unix98 ptys have majors
 * 136–143, minor spread over the low byte and bits 20+.
 */
export function ptsPath(ttyNr: number): string | undefined {
  const major = (ttyNr >> 8) & 0xfff;
  const minor = (ttyNr & 0xff) | ((ttyNr >> 12) & 0xfff00);
  if (major < 136 || major > 143) return undefined;
  return `/dev/pts/${(major - 136) * 256 + minor}`;
}

/** Target descriptors an epoll instance watches, from /proc/<pid>/fdinfo/<epfd> ("tfd: 5 ..."). */
export function epollTargets(fdinfo: string): number[] {
  const fds: number[] = [];
  for (const match of fdinfo.matchAll(/^tfd:\s+(\d+)/gm)) fds.push(Number(match[1]));
  return fds;
}

/** Descriptors set in an fd_set bitmap of `nfds` bits (select, pselect6). */
export function fdSetMembers(bits: Uint8Array, nfds: number): number[] {
  const fds: number[] = [];
  for (let fd = 0; fd < nfds && fd >> 3 < bits.length; fd++) {
    if ((bits[fd >> 3]! >> (fd & 7)) & 1) fds.push(fd);
  }
  return fds;
}

/** Descriptors polled for reading in a struct pollfd array (int fd; short events; short revents). */
export function pollReaders(bytes: Uint8Array, count: number): number[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const fds: number[] = [];
  for (let i = 0; i < count && i * 8 + 8 <= bytes.byteLength; i++) {
    const fd = view.getInt32(i * 8, true);
    const events = view.getInt16(i * 8 + 4, true);
    // POLLIN 0x1, POLLPRI 0x2, POLLRDNORM 0x40
    if (fd >= 0 && events & 0x43) fds.push(fd);
  }
  return fds;
}

/**
 * `stty -a` output: whether typed input shows. A terminal with `-echo` in canonical mode is a
 * password prompt (getpass, read -s); in raw mode (`-icanon`, readline, vim) the program echoes
 * what it wants itself, so that counts as echoed.
 */
export function sttyEcho(text: string): boolean | undefined {
  const echo = sttyFlag(text, 'echo');
  const icanon = sttyFlag(text, 'icanon');
  if (echo === undefined) return undefined;
  return echo || icanon === false;
}

function sttyFlag(text: string, name: string): boolean | undefined {
  const match = new RegExp(`(^|[\\s;])(-?)${name}(?=[\\s;]|$)`, 'm').exec(text);
  if (!match) return undefined;
  return match[2] !== '-';
}
