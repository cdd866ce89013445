// Other POSIX systems (macOS, the BSDs): the process table from one `ps` call, with each
// process's environment where ps can show it, so a setsid escapee is found by its tree marker
// even after its parent exited (what Linux reads from /proc/<pid>/environ).
import { execFile } from 'node:child_process';
import { TREE_MARKER_ENV } from '@procmux/core-types';
import type { ProcessEntry } from './types.js';

/** Where ps lives on macOS and the BSDs; an absolute path, so PATH cannot swap it. */
export const PS_PATH = '/bin/ps';
/** POSIX `ps` options: every process, no header, the columns the tree kill needs. */
export const PS_ARGS: readonly string[] = ['-A', '-o', 'pid=,ppid=,pgid=,stat='];
/** The same columns plus the start time and the command, to which ps appends the environment. */
export const PS_ENV_COLUMNS = 'pid=,ppid=,pgid=,stat=,lstart=,command=';

/**
 * The ps arguments that also print environments on `platform`, or undefined where ps has no
 * such option (Linux reads /proc instead). macOS spells it -E, the BSDs -e; -ww keeps long
 * lines whole. ps shows the environment a process was started with, and only for processes
 * of our own user (all of them as root).
 */
export function psEnvArgs(platform: NodeJS.Platform): readonly string[] | undefined {
  if (platform === 'darwin') return ['-A', '-ww', '-E', '-o', PS_ENV_COLUMNS];
  if (platform === 'freebsd' || platform === 'openbsd' || platform === 'netbsd') {
    return ['-A', '-ww', '-e', '-o', PS_ENV_COLUMNS];
  }
  return undefined;
}

const BASIC_LINE = /^\s*(\d+)\s+(\d+)\s+(\d+)\s+(\S+)/;
// lstart is ctime's shape in the C locale: "Tue Dec  1 11:53:35 2026".
const ENV_LINE =
  /^\s*(\d+)\s+(\d+)\s+(\d+)\s+(\S+)\s+([A-Z][a-z]{2}\s+[A-Z][a-z]{2}\s+\d{1,2}\s+\d{2}:\d{2}:\d{2}\s+\d{4})\s?(.*)$/;
const MARKER = new RegExp(`(?:^|\\s)${TREE_MARKER_ENV}=(\\S+)`, 'g');

/** Start time in epoch seconds from lstart (local time, the same in every snapshot). */
function parseStart(lstart: string): number | undefined {
  const ms = Date.parse(lstart.replace(/\s+/g, ' '));
  return Number.isNaN(ms) ? undefined : Math.floor(ms / 1000);
}

/**
 * The tree marker in a command line followed by its environment. The last occurrence wins:
 * the environment comes after the arguments, so an argument that merely looks like a marker
 * does not hide the real one.
 */
export function markerFromCommand(text: string): string | undefined {
  let marker: string | undefined;
  for (const match of text.matchAll(MARKER)) marker = match[1];
  return marker;
}

/**
 * Parses `ps -A -o pid=,ppid=,pgid=,stat=` output, or the same with `lstart=,command=` and
 * environments (psEnvArgs). Lines that have neither shape are skipped. Without the extra
 * columns start times and markers are undefined.
 */
export function parsePsOutput(output: string): ProcessEntry[] {
  const table: ProcessEntry[] = [];
  for (const line of output.split('\n')) {
    const full = ENV_LINE.exec(line);
    const match = full ?? BASIC_LINE.exec(line);
    if (match === null) continue;
    table.push({
      pid: Number(match[1]),
      ppid: Number(match[2]),
      pgid: Number(match[3]),
      // 'Ss+', 'Z', 'R+': the first letter is the state, the rest are flags.
      state: match[4]!.slice(0, 1),
      startTime: full ? parseStart(full[5]!) : undefined,
      marker: full ? markerFromCommand(full[6]!) : undefined,
    });
  }
  return table;
}

/** Runs ps (C locale, so lstart parses) and resolves its output; rejects when ps fails. */
export function runPs(file = PS_PATH, args: readonly string[] = PS_ARGS): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      file,
      args,
      { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, env: { ...process.env, LC_ALL: 'C' } },
      (error, stdout) => {
        if (error) reject(error);
        else resolve(stdout);
      },
    );
  });
}

/**
 * A table reader that asks ps for environments with `envArgs` and, the first time that ps
 * refuses them, falls back for good to the plain columns (no markers, still a whole tree by
 * parents and groups).
 */
export function psReader(
  envArgs: readonly string[] | undefined,
  run: (args: readonly string[]) => Promise<string> = (args) => runPs(PS_PATH, args),
): () => Promise<string> {
  let withEnv = envArgs !== undefined;
  return async () => {
    if (withEnv && envArgs !== undefined) {
      try {
        return await run(envArgs);
      } catch {
        withEnv = false;
      }
    }
    return run(PS_ARGS);
  };
}
