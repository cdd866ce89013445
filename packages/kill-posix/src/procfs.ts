// Linux: the process table straight from /proc, with each process's tree marker.
import { closeSync, openSync, readdirSync, readSync } from 'node:fs';
import { TREE_MARKER_ENV } from '@procmux/core-types';
import type { ProcessEntry } from './types.js';

/** The fields of /proc/<pid>/stat a tree kill needs. */
export interface ProcStat {
  state: string;
  ppid: number;
  pgid: number;
  startTime: number;
}

/**
 * Parses /proc/<pid>/stat. The command name in parentheses may itself hold spaces and ')',
 * so the fields are counted from the last ')'. Undefined when the text is not a stat line.
 */
export function parseProcStat(text: string): ProcStat | undefined {
  const close = text.lastIndexOf(')');
  if (close < 0) return undefined;
  // Field 3 (state) is index 0 here, so field n is index n - 3.
  const fields = text.slice(close + 2).split(' ');
  const state = fields[0];
  const ppid = Number(fields[1]);
  const pgid = Number(fields[2]);
  const startTime = Number(fields[19]);
  if (!state || !Number.isInteger(ppid) || !Number.isInteger(pgid) || !Number.isInteger(startTime)) {
    return undefined;
  }
  return { state, ppid, pgid, startTime };
}

/** The value of `name` in a NUL-separated environment block (/proc/<pid>/environ). */
export function markerFromEnviron(environ: Buffer, name = TREE_MARKER_ENV): string | undefined {
  const key = Buffer.from(`${name}=`);
  let at = environ.indexOf(key);
  // A match must start an entry, not sit inside another one (FOO_PROCMUX_TREE=...).
  while (at > 0 && environ[at - 1] !== 0) at = environ.indexOf(key, at + 1);
  if (at < 0) return undefined;
  const start = at + key.length;
  const end = environ.indexOf(0, start);
  return environ.subarray(start, end < 0 ? environ.length : end).toString('utf8');
}

// Every /proc read goes through one buffer. readFileSync sizes its reads by fstat, which says
// 0 for /proc files, and took 2-10x as long as open + read + close: a snapshot of 67
// processes took about 8 ms, most of a tree kill's own time.
const SCRATCH_BYTES = 16 * 1024;
let scratch = Buffer.allocUnsafe(SCRATCH_BYTES);

/** A /proc file's whole content, valid until the next call; throws as openSync does. */
export function readProcFile(path: string): Buffer {
  const fd = openSync(path, 'r');
  try {
    let length = 0;
    for (;;) {
      if (length === scratch.length) {
        const bigger = Buffer.allocUnsafe(scratch.length * 2);
        scratch.copy(bigger, 0, 0, length);
        scratch = bigger;
      }
      const read = readSync(fd, scratch, length, scratch.length - length, null);
      if (read === 0) break;
      length += read;
    }
    const content = scratch.subarray(0, length);
    // A huge environment grew the buffer: the next read starts small again.
    if (scratch.length > 4 * SCRATCH_BYTES) scratch = Buffer.allocUnsafe(SCRATCH_BYTES);
    return content;
  } finally {
    closeSync(fd);
  }
}

function readStat(procRoot: string, pid: number | string): ProcStat | undefined {
  try {
    return parseProcStat(readProcFile(`${procRoot}/${pid}/stat`).toString('latin1'));
  } catch {
    // Exited while we looked.
    return undefined;
  }
}

/** How often, 1 ms apart, a process inside its exec is read again for its new environment. */
const MID_EXEC_TRIES = 50;

/**
 * A process's tree marker, from its environment as `read` gives it. An environ opened before
 * the process execs reads empty once the exec has replaced its memory, and reads empty too
 * while the exec is still setting the new memory up (its command line, `inExec`, reads empty
 * then as well): a job its shell forked, exec'ing `sleep` just as the shell exits and the sweep
 * looks, would lose its marker and escape. So an empty read is read again from a fresh open,
 * and while the process is inside its exec, again 1 ms later (at most MID_EXEC_TRIES times). A
 * process that runs with an empty environment (`env -i`) has its command line: read twice. A
 * kernel thread (`userProcess` false) has no environment: read once.
 */
export function markerOf(
  read: () => Buffer,
  userProcess: boolean,
  inExec: () => boolean = () => false,
  pause: (ms: number) => void = sleepSync,
): string | undefined {
  let environ = read();
  for (let tries = 0; environ.length === 0 && userProcess && tries < MID_EXEC_TRIES; tries++) {
    if (tries > 0) {
      if (!inExec()) break;
      pause(1);
    }
    environ = read();
  }
  return markerFromEnviron(environ);
}

const pauseCell = new Int32Array(new SharedArrayBuffer(4));

/** Blocks this thread `ms` milliseconds (the table is read synchronously). */
function sleepSync(ms: number): void {
  Atomics.wait(pauseCell, 0, 0, ms);
}

function readMarker(procRoot: string, pid: string, stat: ProcStat): string | undefined {
  try {
    // Kernel threads are kthreadd's (pid 2) children.
    return markerOf(
      () => readProcFile(`${procRoot}/${pid}/environ`),
      pid !== '2' && stat.ppid !== 2,
      () => readProcFile(`${procRoot}/${pid}/cmdline`).length === 0,
    );
  } catch {
    // Another user's process (EACCES), or it exited.
    return undefined;
  }
}

/** Every process in /proc with its state, parent, group, start time and tree marker. */
export function readProcTable(procRoot = '/proc'): ProcessEntry[] {
  const table: ProcessEntry[] = [];
  for (const name of readdirSync(procRoot)) {
    if (!/^\d+$/.test(name)) continue;
    const stat = readStat(procRoot, name);
    if (stat === undefined) continue;
    table.push({ pid: Number(name), ...stat, marker: readMarker(procRoot, name, stat) });
  }
  return table;
}

/** The process group this very process (same pid and start time) is in now, or undefined. */
export function procGroup(entry: ProcessEntry, procRoot = '/proc'): number | undefined {
  const stat = readStat(procRoot, entry.pid);
  if (stat === undefined || (entry.startTime !== undefined && stat.startTime !== entry.startTime))
    return undefined;
  return stat.pgid;
}

/** Whether this very process still runs: present, not a zombie, and not a reused pid. */
export function procAlive(entry: ProcessEntry, procRoot = '/proc'): boolean {
  const stat = readStat(procRoot, entry.pid);
  if (stat === undefined || stat.state === 'Z' || stat.state === 'X' || stat.state === 'x') return false;
  return entry.startTime === undefined || stat.startTime === entry.startTime;
}
