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
  kill(target: number, signal: 'SIGHUP' | 'SIGCONT'): void;
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

/** The fields after the command name's closing parenthesis (a name may hold spaces and parentheses). */
function statFields(stat: string): string[] {
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/**
 * Field 22 of /proc/<pid>/stat (starttime, in clock ticks since boot): with the pid, it names
 * one process, where a pid alone may name a later one once the first was reaped. Linux only;
 * undefined elsewhere or when the process is gone.
 */
export function startTimeOf(pid: number, effects: HangUpEffects): string | undefined {
  if (effects.platform !== 'linux') return undefined;
  const stat = effects.readStat(pid);
  // state is field 3, starttime field 22.
  return stat === undefined ? undefined : statFields(stat)[19];
}

/**
 * Whether `pid` is still the process that had `startedAt` (startTimeOf() at spawn). True when
 * that cannot be told (no start time known, not Linux), as a pid alone would be trusted.
 */
export function stillRunning(pid: number, startedAt: string | undefined, effects: HangUpEffects): boolean {
  if (startedAt === undefined || effects.platform !== 'linux') return true;
  return startTimeOf(pid, effects) === startedAt;
}

function tpgidOf(stat: string): number | undefined {
  // state ppid pgrp session tty_nr tpgid
  return positive(statFields(stat)[5]);
}

function positive(raw: string | undefined): number | undefined {
  const group = Number(raw);
  return Number.isInteger(group) && group > 0 ? group : undefined;
}

/**
 * The foreground process group of the terminal `pid` (a session leader) controls: field 8
 * (tpgid) of /proc/<pid>/stat on Linux; `ps -o tpgid=` elsewhere. Undefined when unknown.
 */
export function foregroundGroup(pid: number, effects: HangUpEffects): number | undefined {
  if (effects.platform === 'win32') return undefined;
  if (effects.platform === 'linux') {
    const stat = effects.readStat(pid);
    return stat === undefined ? undefined : tpgidOf(stat);
  }
  return positive(effects.psTpgid(pid)?.trim());
}

/**
 * SIGHUP (then SIGCONT) to the foreground process group of the terminal `pid` leads, then to
 * the leader itself. Interactive shells and editors ignore SIGTERM but end at once on SIGHUP (a shell
 * passes it on to its jobs). Returns the targets signalled; none on Windows.
 *
 * With `startedAt` (startTimeOf() at spawn, Linux), nothing is signalled once `pid` names
 * another process or none: the program may have been reaped before its exit was reported, and
 * its number taken by a process of another terminal, whose group would get the hang-up.
 */
export function hangUpTerminal(
  pid: number,
  effects: HangUpEffects = systemHangUpEffects,
  startedAt?: string,
): number[] {
  if (effects.platform === 'win32') return [];
  let group: number | undefined;
  if (effects.platform === 'linux' && startedAt !== undefined) {
    const stat = effects.readStat(pid);
    if (stat === undefined || statFields(stat)[19] !== startedAt) return [];
    group = tpgidOf(stat);
  } else {
    group = foregroundGroup(pid, effects);
  }
  const targets = group === undefined ? [pid] : group === pid ? [-pid] : [-group, pid];
  // Then SIGCONT, as the kernel's own hang-up sends: a stopped program acts on the SIGHUP now,
  // not once the tree kill's SIGKILL comes (a stopped bash -i sat out the 3 s SIGTERM grace).
  for (const target of targets) {
    effects.kill(target, 'SIGHUP');
    effects.kill(target, 'SIGCONT');
  }
  return targets;
}
