// Hanging a terminal up, as closing its window does. Every OS effect is injected, so each
// platform's path is unit-tested anywhere.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** What a hang-up needs from the system. */
export interface HangUpEffects {
  platform: NodeJS.Platform;
  /** /proc/<pid>/stat (Linux), undefined when it cannot be read. */
  readStat(pid: number): string | undefined;
  /** `ps -o tpgid= -p <pid>` output (macOS and other POSIX), undefined when ps fails. */
  psTpgid(pid: number): string | undefined;
  /** process.kill; a target that is gone is not an error. */
  kill(target: number, signal: 'SIGHUP'): void;
}

export const systemHangUpEffects: HangUpEffects = {
  platform: process.platform,
  readStat: (pid) => {
    try {
      return readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      return undefined;
    }
  },
  psTpgid: (pid) => {
    try {
      return execFileSync('ps', ['-o', 'tpgid=', '-p', String(pid)], { encoding: 'utf8', timeout: 2_000 });
    } catch {
      return undefined;
    }
  },
  kill: (target, signal) => {
    try {
      process.kill(target, signal);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
    }
  },
};

/**
 * The foreground process group of the terminal `pid` (a session leader) controls: field 8
 * (tpgid) of /proc/<pid>/stat on Linux, counted after the command name's closing parenthesis
 * (a name may hold spaces and parentheses); `ps -o tpgid=` elsewhere. Undefined when unknown.
 */
export function foregroundGroup(pid: number, effects: HangUpEffects): number | undefined {
  if (effects.platform === 'win32') return undefined;
  let raw: string | undefined;
  if (effects.platform === 'linux') {
    const stat = effects.readStat(pid);
    if (stat === undefined) return undefined;
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // state ppid pgrp session tty_nr tpgid
    raw = fields[5];
  } else {
    raw = effects.psTpgid(pid)?.trim();
  }
  const group = Number(raw);
  return Number.isInteger(group) && group > 0 ? group : undefined;
}

/**
 * SIGHUP to the foreground process group of the terminal `pid` leads, then to the leader
 * itself. Interactive shells and editors ignore SIGTERM but end at once on SIGHUP (a shell
 * passes it on to its jobs). Returns the targets signalled; none on Windows.
 */
export function hangUpTerminal(pid: number, effects: HangUpEffects = systemHangUpEffects): number[] {
  if (effects.platform === 'win32') return [];
  const group = foregroundGroup(pid, effects);
  const targets = group === undefined ? [pid] : group === pid ? [-pid] : [-group, pid];
  for (const target of targets) effects.kill(target, 'SIGHUP');
  return targets;
}
