// What of a run's tree still runs when its own process exited: `sleep 30 & echo started`
// returns at once and its background child ends with the tree, which is right, but the
// caller must be able to say so. Listed from the cgroup where the run has one (nothing can
// leave it), else from the tree the kill would reach (process group, descendants, marker),
// and named from /proc before anything of the tree is ended.
import { readFileSync } from 'node:fs';
import type { LeftoverProcess } from '@procmux/core-types';

/** A command line is cut here: the name and its first arguments are what a reader needs. */
const MAX_COMMAND_CHARS = 200;

/** Where the pids come from and how a pid is read; injected so the logic is tested anywhere. */
export interface LeftoverEffects {
  /** The pids of the tree now (the cgroup's members, or the tree-kill snapshot). */
  pids(): Promise<readonly number[]> | readonly number[];
  /** A file's text, or undefined when it cannot be read (the process is gone). */
  read(file: string): string | undefined;
  sleep(ms: number): Promise<void>;
}

/**
 * How much CPU a fork of the exited process may use without exec'ing before it counts as a
 * subshell that never will (`(while :; do :; done) &`): `sleep 30 & echo started` forks bash
 * for the job, and the parent may be gone before the fork has exec'd `sleep`. Counted in the
 * fork's own CPU time, not the clock: on a loaded machine a fork may wait longer than this for
 * a core before it runs at all (a 200 ms wall-clock grace named it by the shell's command line).
 */
export const EXEC_GRACE_MS = 200;
/** The most a listing waits for forks to exec, however loaded the machine. */
export const EXEC_WAIT_CAP_MS = 2_000;
const EXEC_POLL_MS = 5;
/** /proc's utime and stime are in USER_HZ ticks, 100 a second on every Linux. */
const MS_PER_TICK = 10;

/**
 * Names every live pid of the tree but `rootPid` (which has just exited); sorted by pid.
 * `rootArgv` is the exited process's argv: a member still showing it is a fork that has not
 * exec'd yet, and a member whose command line reads empty is inside its exec (the new program's
 * arguments are not set up yet: its comm alone would say `sleep` for `sleep 30`), and a member
 * that is an exec wrapper (`setsid sleep 30`) has not reached its program; each is read
 * again until it has exec'd, unless it is a subshell that will not: it has children of its own
 * or has used EXEC_GRACE_MS of CPU (then it keeps the shell's name). At most EXEC_WAIT_CAP_MS.
 */
export async function listLeftovers(
  rootPid: number,
  effects: LeftoverEffects,
  rootArgv: readonly string[] = [],
): Promise<LeftoverProcess[]> {
  const pids = [...new Set(await effects.pids())].filter((pid) => pid !== rootPid).sort((a, b) => a - b);
  const rootCommand = rootArgv.join(' ');
  const found: LeftoverProcess[] = [];
  let deadline: number | undefined;
  for (const pid of pids) {
    // Whether the name was read inside an exec comes from the same read of the command line as
    // the name: read again, a command line filled in meanwhile passed off the comm it replaced
    // (`setsid`, for `(setsid env -i sleep 30 &)`).
    const unsettled = (name: ProcessName | undefined) =>
      name !== undefined &&
      ((rootCommand !== '' && name.command === cut(rootCommand)) ||
        name.inExec ||
        isExecWrapper(name.command)) &&
      !isSubshell(pid, pids, effects);
    let name = readName(pid, effects);
    while (unsettled(name)) {
      deadline ??= Date.now() + EXEC_WAIT_CAP_MS;
      if (Date.now() >= deadline) break;
      await effects.sleep(EXEC_POLL_MS);
      name = readName(pid, effects);
    }
    if (name !== undefined) found.push({ pid, command: name.command });
  }
  return found;
}

// Programs that set something up and exec the command they are given: `(setsid env -i server &)`
// read at the wrong moment would be named `setsid env -i server`, or `setsid`. One that forks
// and waits (`setsid -w`) has a child, so it counts as settled (isSubshell).
const EXEC_WRAPPERS = new Set([
  'setsid',
  'env',
  'nohup',
  'nice',
  'ionice',
  'stdbuf',
  'chrt',
  'taskset',
  'setpriv',
]);

/** Whether a command line is a wrapper on its way to exec its command (it names one). */
export function isExecWrapper(command: string): boolean {
  const [program, ...args] = command.split(' ');
  return EXEC_WRAPPERS.has(program?.slice(program.lastIndexOf('/') + 1) ?? '') && args.length > 0;
}

// A fork that runs commands itself (the parent of another member) or has spent EXEC_GRACE_MS
// of CPU without exec'ing is a subshell, not a fork on its way to its program.
function isSubshell(pid: number, pids: readonly number[], effects: Pick<LeftoverEffects, 'read'>): boolean {
  const fields = statFields(pid, effects);
  if (fields === undefined) return false;
  const cpuTicks = Number(fields[11]) + Number(fields[12]);
  if (cpuTicks * MS_PER_TICK >= EXEC_GRACE_MS) return true;
  return pids.some((other) => other !== pid && statFields(other, effects)?.[1] === String(pid));
}

// The fields of /proc/<pid>/stat after the command name: [0] the state, [1] the ppid,
// [11] utime, [12] stime.
function statFields(pid: number, effects: Pick<LeftoverEffects, 'read'>): string[] | undefined {
  const stat = effects.read(`/proc/${pid}/stat`);
  if (stat === undefined) return undefined;
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** Its command line (`sleep 30`), else its comm; undefined for a zombie or a process gone. */
export function nameOf(pid: number, effects: Pick<LeftoverEffects, 'read'>): string | undefined {
  return readName(pid, effects)?.command;
}

/** A process's name, and whether its command line read empty (inside an exec: the comm named it). */
interface ProcessName {
  command: string;
  inExec: boolean;
}

function readName(pid: number, effects: Pick<LeftoverEffects, 'read'>): ProcessName | undefined {
  const state = statFields(pid, effects)?.[0];
  if (state === undefined || state === 'Z' || state === 'X') return undefined;
  const line = effects.read(`/proc/${pid}/cmdline`);
  const argv = (line ?? '').split('\0').filter((arg) => arg !== '');
  const command = argv.length > 0 ? argv.join(' ') : (effects.read(`/proc/${pid}/comm`) ?? '').trim();
  if (command === '') return undefined;
  return { command: cut(command), inExec: line === '' };
}

function cut(command: string): string {
  return command.length > MAX_COMMAND_CHARS ? `${command.slice(0, MAX_COMMAND_CHARS - 1)}…` : command;
}

/**
 * Whether a shell line may start a background job: a `&` that is not part of `&&`, `>&`,
 * `<&`, `&>` or `|&`. Conservative: a `&` inside quotes counts too (then job control is on
 * for nothing worse than bash's job notices); `eval`, functions and sourced files are not seen.
 */
export function startsBackgroundJob(command: string): boolean {
  return /(^|[^&<>|])&(?![&>])/.test(command);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** This host's /proc reader. */
export function readProcFile(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
