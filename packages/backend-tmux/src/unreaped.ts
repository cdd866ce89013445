// A pane process that died but that tmux never reaped, and the nudge that makes tmux reap it.
//
// Why it happens (tmux 3.3a built with libutempter, as Debian and Ubuntu ship it): when a pane's
// terminal reports EOF, tmux closes it through utempter_remove_record(), which sets SIGCHLD to
// SIG_DFL while it forks its helper and waits for it (7 ms median, up to 150 ms under load). A
// child that dies inside that window sends a SIGCHLD the kernel discards, and tmux reaps only
// on SIGCHLD: the pane shows dead (its terminal is closed), #{pane_dead_status} stays empty, the
// pane-died hook never runs, and the process stays a zombie until some other child of the
// server dies. (tmux re-raises SIGCHLD after utempter_add_record, not after the remove.) One
// SIGCHLD sent to the server makes it reap every dead child and run the hook with the real
// status. See the README, "An unreaped pane", for how this was found.
import { readFileSync } from 'node:fs';

/** Parses /proc/<pid>/stat: the parent pid of a zombie ("Z"), else undefined. */
export function zombieParentOf(stat: string): number | undefined {
  // Fields after the command name, which is in parentheses and may itself hold ") ".
  const rest = stat
    .slice(stat.lastIndexOf(')') + 2)
    .trim()
    .split(' ');
  if (rest[0] !== 'Z') return undefined;
  // rest[0] is field 3 (state), rest[1] field 4 (ppid).
  const ppid = Number(rest[1]);
  return Number.isSafeInteger(ppid) && ppid > 1 ? ppid : undefined;
}

/**
 * The parent of `pid` when `pid` is a zombie, on Linux (the only platform whose tmux builds
 * use libutempter); undefined when it is not a zombie, cannot be read, or elsewhere.
 */
export function zombieParent(
  pid: number,
  platform: NodeJS.Platform = process.platform,
  read: (path: string) => string = (path) => readFileSync(path, 'utf8'),
): number | undefined {
  if (platform !== 'linux') return undefined;
  try {
    return zombieParentOf(read(`/proc/${pid}/stat`));
  } catch {
    return undefined;
  }
}

export interface NudgeEffects {
  zombieParent(pid: number): number | undefined;
  /** The tmux server's pid, asked of the server itself. */
  serverPid(): Promise<number | undefined>;
  kill(pid: number, signal: 'SIGCHLD'): void;
}

/**
 * When the pane process `pid` is a zombie of the tmux server, sends the server one SIGCHLD so
 * it reaps it (and runs the pane-died hook). True when it nudged. Never signals a process that
 * is not that server (a reused pid, a reparented zombie).
 */
export async function nudgeReaper(pid: number, effects: NudgeEffects): Promise<boolean> {
  const parent = effects.zombieParent(pid);
  if (parent === undefined) return false;
  if ((await effects.serverPid()) !== parent) return false;
  try {
    effects.kill(parent, 'SIGCHLD');
    return true;
  } catch {
    return false;
  }
}
