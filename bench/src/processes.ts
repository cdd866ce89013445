// Every process the bench starts must be gone when it exits. Raw spawns are tracked by pid
// (or process group); every spawn, procmux's too, carries BENCH_MARKER_ENV, and the final
// sweep kills whatever still carries this run's marker or descends from the harness.
import { readdirSync, readFileSync } from 'node:fs';

/** Environment variable put in every process the bench starts; its value is the harness pid. */
export const BENCH_MARKER_ENV = 'PROCMUX_BENCH';

/**
 * This run's marker: the harness pid. A child Node process of the harness (the RSS case)
 * inherits it, so what that child starts is swept by the harness too.
 */
export function runMarker(): string {
  return process.env[BENCH_MARKER_ENV] ?? String(process.pid);
}

/** The environment for a spawned child: the harness's own plus the run's marker. */
export function benchEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
  env[BENCH_MARKER_ENV] = runMarker();
  return env;
}

interface ProcEntry {
  pid: number;
  ppid: number;
  pgid: number;
  state: string;
}

function readStat(pid: number): ProcEntry | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // comm may hold spaces and parentheses: the fields start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { pid, state: fields[0] ?? '?', ppid: Number(fields[1]), pgid: Number(fields[2]) };
  } catch {
    return undefined;
  }
}

/** Every process on the machine (Linux /proc), zombies included. */
export function processTable(): ProcEntry[] {
  const table: ProcEntry[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const entry = readStat(Number(name));
    if (entry) table.push(entry);
  }
  return table;
}

/** True while `pid` exists and is not a zombie (a zombie is dead, only not yet reaped). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  const entry = readStat(pid);
  return entry !== undefined && entry.state !== 'Z';
}

/** Live descendants of `root`, not including it. */
export function descendantsOf(root: number, table = processTable()): number[] {
  const children = new Map<number, ProcEntry[]>();
  for (const entry of table) {
    const list = children.get(entry.ppid) ?? [];
    list.push(entry);
    children.set(entry.ppid, list);
  }
  const found: number[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const pid = stack.pop()!;
    for (const child of children.get(pid) ?? []) {
      if (child.state !== 'Z') found.push(child.pid);
      stack.push(child.pid);
    }
  }
  return found;
}

function hasOurMarker(pid: number): boolean {
  try {
    const environ = readFileSync(`/proc/${pid}/environ`, 'utf8');
    return environ.split('\0').includes(`${BENCH_MARKER_ENV}=${runMarker()}`);
  } catch {
    return false;
  }
}

const tracked = new Set<number>();

/** Remembers a pid (or, negative, a process group) to SIGKILL if it is still there at the end. */
export function track(pid: number | undefined): void {
  if (pid !== undefined && pid !== 0) tracked.add(pid);
}

export function untrack(pid: number | undefined): void {
  if (pid !== undefined) tracked.delete(pid);
}

/** SIGKILL, ignoring a process that is already gone. */
export function forceKill(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Gone already.
  }
}

/**
 * Kills every tracked pid and group, every live descendant of the harness (the RSS child and
 * what it started) and every process carrying this run's marker. Returns how many live
 * processes the sweep found, so a leak shows in the output.
 */
export function sweep(): number {
  for (const pid of tracked) forceKill(pid);
  tracked.clear();
  const table = processTable();
  const leftovers = new Set(descendantsOf(process.pid, table));
  for (const entry of table) {
    if (entry.pid !== process.pid && entry.state !== 'Z' && hasOurMarker(entry.pid)) leftovers.add(entry.pid);
  }
  for (const pid of leftovers) forceKill(pid);
  return leftovers.size;
}
