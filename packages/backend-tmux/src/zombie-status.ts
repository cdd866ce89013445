// The exit status of a pane's process that has died but that tmux has not reaped (seen with
// tmux 3.3a: the pane is dead, #{pane_dead_status} stays empty and the pane-died hook never
// runs, while the process sits as a zombie). Linux keeps a zombie's wait status in
// /proc/<pid>/stat (field 52, exit_code), so the real status is still known; elsewhere this
// returns undefined and the backend waits for tmux.
import { readFileSync } from 'node:fs';

/** Parses /proc/<pid>/stat: the status of a zombie ("Z"), else undefined. */
export function zombieStatusOf(stat: string): { exitCode: number | null; signal: number | null } | undefined {
  // Fields after the command name, which is in parentheses and may itself hold ") ".
  const rest = stat
    .slice(stat.lastIndexOf(')') + 2)
    .trim()
    .split(' ');
  if (rest[0] !== 'Z') return undefined;
  // rest[0] is field 3 (state), so field 52 (exit_code) is rest[49].
  const raw = Number(rest[49]);
  if (!Number.isInteger(raw) || raw < 0) return undefined;
  const signal = raw & 0x7f;
  return signal === 0 ? { exitCode: (raw >> 8) & 0xff, signal: null } : { exitCode: null, signal };
}

/** The zombie status of `pid` on Linux; undefined when it is not a zombie or cannot be read. */
export function zombieStatus(
  pid: number,
  platform: NodeJS.Platform = process.platform,
  read: (path: string) => string = (path) => readFileSync(path, 'utf8'),
): { exitCode: number | null; signal: number | null } | undefined {
  if (platform !== 'linux') return undefined;
  try {
    return zombieStatusOf(read(`/proc/${pid}/stat`));
  } catch {
    return undefined;
  }
}
