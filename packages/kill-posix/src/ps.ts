// Other POSIX systems (macOS, the BSDs): the process table from one `ps` call.
import { execFile } from 'node:child_process';
import type { ProcessEntry } from './types.js';

/** Where ps lives on macOS and the BSDs; an absolute path, so PATH cannot swap it. */
export const PS_PATH = '/bin/ps';
/** POSIX `ps` options: every process, no header, the columns the tree kill needs. */
export const PS_ARGS: readonly string[] = ['-A', '-o', 'pid=,ppid=,pgid=,stat='];

/**
 * Parses `ps -A -o pid=,ppid=,pgid=,stat=` output. Lines that do not have that shape are
 * skipped. ps tells neither start times nor environments, so both are undefined.
 */
export function parsePsOutput(output: string): ProcessEntry[] {
  const table: ProcessEntry[] = [];
  for (const line of output.split('\n')) {
    const match = /^\s*(\d+)\s+(\d+)\s+(\d+)\s+(\S+)/.exec(line);
    if (match === null) continue;
    table.push({
      pid: Number(match[1]),
      ppid: Number(match[2]),
      pgid: Number(match[3]),
      // 'Ss+', 'Z', 'R+': the first letter is the state, the rest are flags.
      state: match[4]!.slice(0, 1),
      startTime: undefined,
      marker: undefined,
    });
  }
  return table;
}

/** Runs ps and resolves its output; rejects when ps cannot run or fails. */
export function runPs(file = PS_PATH, args: readonly string[] = PS_ARGS): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }, (error, stdout) => {
      if (error) reject(error);
      else resolve(stdout);
    });
  });
}
