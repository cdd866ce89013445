// Where a backend keeps its socket and per-session files, and the ref a record stores.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { invalidOption, TREE_MARKER_ENV } from '@procmux/core-types';
import { PROGRAM_STARTED_MARK } from '@procmux/supervisor';

// Paths go into tmux hook and pipe commands run by sh: only characters that need no quoting.
const SAFE_PATH = /^[A-Za-z0-9_./@+,:~-]+$/;
// sun_path holds 104 bytes on macOS (108 on Linux), terminator included.
const MAX_SOCKET_BYTES = 103;

/** The files of one tmux-held session. */
export interface SessionFiles {
  /** The pane's output, byte for byte (pipe-pane -O appends to it). */
  log: string;
  /** Written by the pane-died hook: "<status>:<signal number>\n". */
  exit: string;
  /** Created when the log writer ends (its pipe closed: session killed or server gone). */
  eof: string;
  /** The log writer's pid: a follower on another machine ends once that process is gone. */
  writer: string;
  /**
   * Created (empty: it needs no data block on a full disk) when the log writer could not
   * append (ENOSPC, EDQUOT, a file size limit): the log is incomplete from there on.
   */
  failed: string;
  /** The start script holding the environment; it deletes itself before the exec. */
  env: string;
  /**
   * A pid-namespace pane's waiter (unshare) writes its own stderr here: the start script reads
   * it to tell the program's SIGKILL from its exit 1 (supervisor's waiter-status.ts), then
   * deletes it.
   */
  waiter: string;
}

/** Whether sh and tmux can take `path` unquoted (absolute, safe characters, no `..`). */
export function isSafePath(path: string): boolean {
  return path.startsWith('/') && SAFE_PATH.test(path) && !path.split('/').includes('..');
}

export interface Layout {
  dir: string;
  socket: string;
  sessions: string;
  files(name: string): SessionFiles;
}

/** The layout under `dir`; ERR_INVALID_OPTION for a path sh or a socket could not take. */
export function layoutOf(dir: unknown): Layout {
  if (typeof dir !== 'string' || !dir.startsWith('/') || !SAFE_PATH.test(dir)) {
    throw invalidOption('dir', 'an absolute path of letters, digits and _ . / @ + , : ~ -', { value: dir });
  }
  const socket = join(dir, 'tmux.sock');
  const bytes = Buffer.byteLength(socket);
  if (bytes > MAX_SOCKET_BYTES) {
    // `max` bounds the socket path; the directory may take 10 bytes less ("/tmux.sock").
    throw invalidOption(
      'dir',
      `a directory whose socket path (dir/tmux.sock) fits a Unix socket, at most ${MAX_SOCKET_BYTES} bytes (${socket} is ${bytes}); choose a shorter directory`,
      { max: MAX_SOCKET_BYTES },
    );
  }
  const sessions = join(dir, 'sessions');
  return {
    dir,
    socket,
    sessions,
    files: (name) => ({
      log: join(sessions, `${name}.log`),
      exit: join(sessions, `${name}.exit`),
      eof: join(sessions, `${name}.eof`),
      writer: join(sessions, `${name}.writer`),
      failed: join(sessions, `${name}.failed`),
      env: join(sessions, `${name}.env.sh`),
      waiter: join(sessions, `${name}.waiter`),
    }),
  };
}

/** A fresh tmux session name: `pm-` and 12 hex digits. */
export function newSessionName(): string {
  return `pm-${randomBytes(6).toString('hex')}`;
}

const NAME = /^pm-[0-9a-f]{12}$/;

/** What a durable record keeps to re-attach: no secret, nothing live. */
export interface TmuxRef {
  v: 1;
  socket: string;
  session: string;
  log: string;
  /** Bytes of the log a host had when the ref was written; replay starts here. */
  offset: number;
  marker: string;
  /** The pane's cgroup directories (membership first), when it was started in one. */
  cgroup?: string[];
}

export function encodeRef(ref: TmuxRef): string {
  return JSON.stringify(ref);
}

/** Parses a stored ref; undefined when it is not one of ours for `layout` (never trusted blindly). */
export function decodeRef(text: string, layout: Layout): TmuxRef | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const ref = value as Partial<TmuxRef>;
  if (ref.v !== 1 || typeof ref.session !== 'string' || !NAME.test(ref.session)) return undefined;
  if (ref.socket !== layout.socket || ref.log !== layout.files(ref.session).log) return undefined;
  if (typeof ref.offset !== 'number' || !Number.isSafeInteger(ref.offset) || ref.offset < 0) return undefined;
  if (typeof ref.marker !== 'string' || ref.marker === '') return undefined;
  if (
    ref.cgroup !== undefined &&
    (!Array.isArray(ref.cgroup) ||
      ref.cgroup.length === 0 ||
      !ref.cgroup.every((dir) => typeof dir === 'string' && isSafePath(dir)))
  )
    return undefined;
  return ref as TmuxRef;
}

/** Parses an exit file; undefined while it is incomplete. */
export function parseExitFile(text: string): { exitCode: number | null; signal: number | null } | undefined {
  if (!text.endsWith('\n')) return undefined;
  const match = /^(\d*):(\d*)\n$/.exec(text);
  if (!match) return undefined;
  const exitCode = match[1] === '' ? null : Number(match[1]);
  const signal = match[2] === '' ? null : Number(match[2]);
  if (exitCode === null && signal === null) return undefined;
  return { exitCode, signal };
}

/**
 * The start script's text: delete itself, run the command with exactly `env`, and end the
 * way it ended. The shell stays the pane's process while the command runs and 100 ms after:
 * when a pane's process exits, tmux 3.3 closes the terminal once it holds no unread byte, which
 * can be before the kernel has handed it the command's last bytes (measured: 1 of 18 runs of
 * seq 1 100000 lost 9 KB with exec; 4 of 100 without the pause). The shell catches INT, QUIT and TERM
 * only to wait for the command (which gets them with default handling), then dies of
 * the command's signal, so #{pane_dead_signal} still tells it.
 */
export function envScript(
  path: string,
  env: Readonly<Record<string, string>>,
  cgroupProcs: readonly string[] = [],
  waiterStatus?: string,
): string {
  const words = Object.entries(env).map(([key, value]) => quote(`${key}=${value}`));
  return [
    `rm -f -- ${quote(path)}`,
    // The pane's process joins its cgroup before anything runs, so nothing can fork outside it.
    ...cgroupProcs.map(
      (file) =>
        `echo $$ 2>/dev/null >${quote(file)} || { echo "procmux: could not join the pane's cgroup (${file})" >&2; exit 125; }`,
    ),
    'trap : INT QUIT TERM',
    `env -i ${words.join(' ')} "$@"`,
    'st=$?',
    // In a pid namespace: unshare exits 1 when it cannot re-raise the program's SIGKILL, and
    // said so after the started mark; the pane then dies of SIGKILL as the program did.
    ...(waiterStatus === undefined
      ? []
      : [
          `w=; read -r w < ${quote(waiterStatus)} 2>/dev/null; rm -f -- ${quote(waiterStatus)}`,
          `if [ "$st" = 1 ]; then case $w in ${PROGRAM_STARTED_MARK}?*) st=137 ;; esac; fi`,
        ]),
    // The command's last bytes may still sit in the kernel's terminal buffer; tmux closes the
    // terminal when the pane's process exits, so give them time to reach it.
    'sleep 0.1',
    // tmux 3.3a may never hear of this shell's exit (a SIGCHLD lost in libutempter's window,
    // unreaped.ts). A detached helper (no terminal, deaf to the hangup of this shell's exit)
    // sends the server one more SIGCHLD 0.2 s and 1 s later, so tmux reaps this shell and
    // runs the pane-died hook even when no host is watching; a SIGCHLD it does not need is a
    // no-op for tmux. It execs a shell without the session's tree marker: it outlives the
    // session by up to 1.2 s, and a check by marker once the session has ended must find
    // nothing of it.
    // (HUP is ignored before the fork: set inside, the helper could die first.)
    "trap '' HUP",
    `env -u ${TREE_MARKER_ENV} sh -c 'sleep 0.2; kill -CHLD "$1"; sleep 1; kill -CHLD "$1"' procmux-reap-nudge $PPID </dev/null >/dev/null 2>&1 &`,
    'if [ "$st" -gt 128 ] && [ "$st" -lt 160 ]; then n=$((st - 128)); trap - "$n" 2>/dev/null; kill -"$n" $$; fi',
    'exit "$st"',
    '',
  ].join('\n');
}

function quote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
