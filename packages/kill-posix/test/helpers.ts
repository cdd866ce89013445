// Real process trees for the tests, spawned the way procmux adapters spawn: detached (own
// session and group) with a fresh PROCMUX_TREE marker in the environment.
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { TREE_MARKER_ENV, withTreeMarker } from '@procmux/core-types';
import { processTable, trackPid, waitFor } from '@procmux/test-utils';

export interface SpawnedTree {
  readonly child: ChildProcess;
  readonly root: number;
  /** The root's tree marker (undefined when spawned without one). */
  readonly marker: string | undefined;
  /** Pids the script announced with `echo "<name> $!"`. */
  readonly pids: Map<string, number>;
  /** How the root ended. */
  readonly exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface SpawnTreeOptions {
  /** Environment before the marker is added (default: ours). */
  env?: NodeJS.ProcessEnv;
  /** Own session and process group, as the adapters do (default true). */
  detached?: boolean;
  /** Add a fresh tree marker to the environment (default true). */
  marker?: boolean;
}

/**
 * Runs `script` under bash (or `argv` as given), with a tree marker. The script announces
 * pids as `<name> <pid>` lines and prints `ready` once everything is started.
 */
export async function spawnTree(
  script: string | string[],
  options: SpawnTreeOptions = {},
): Promise<SpawnedTree> {
  const childEnv =
    options.marker === false
      ? { ...(options.env ?? process.env) }
      : withTreeMarker(options.env ?? process.env);
  const [file, ...args] = typeof script === 'string' ? ['bash', '-c', script] : script;
  const child = spawn(file!, args, {
    detached: options.detached ?? true,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  trackPid(child.pid);
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const pids = new Map<string, number>();
  await new Promise<void>((resolve, reject) => {
    let buffered = '';
    child.once('error', reject);
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => {
      buffered += chunk;
      let newline = buffered.indexOf('\n');
      while (newline >= 0) {
        const line = buffered.slice(0, newline).trim();
        buffered = buffered.slice(newline + 1);
        if (line === 'ready') resolve();
        const [name, pid] = line.split(' ');
        if (name && pid && /^\d+$/.test(pid)) {
          pids.set(name, Number(pid));
          trackPid(Number(pid));
        }
        newline = buffered.indexOf('\n');
      }
    });
    child.once('exit', () => reject(new Error(`tree root exited before ready: ${script}`)));
  });
  return { child, root: child.pid!, marker: childEnv[TREE_MARKER_ENV], pids, exit };
}

/** Live (non-zombie) processes carrying `marker`. */
export function liveWithMarker(marker: string | undefined): number[] {
  return processTable()
    .filter((p) => p.marker === marker && p.state !== 'Z')
    .map((p) => p.pid)
    .sort((a, b) => a - b);
}

/** A process's parent and group, from /proc. */
export function statOf(pid: number): { ppid: number; pgid: number; sid: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { ppid: Number(fields[1]), pgid: Number(fields[2]), sid: Number(fields[3]) };
}

export const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A process's one-letter state ('Z' for a zombie), or undefined once it is reaped. */
export function stateOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
  } catch {
    return undefined;
  }
}

/** Whether the process has SIGTERM ignored (bit 15 of SigIgn in /proc/<pid>/status). */
export function ignoresTerm(pid: number): boolean {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^SigIgn:\s*([0-9a-f]+)$/m);
    return line !== null && (BigInt(`0x${line[1]}`) & (1n << 14n)) !== 0n;
  } catch {
    return false;
  }
}

/** waitFor for a check that answers undefined until its value is there. */
export async function waitForValue<T>(
  check: () => T | undefined,
  timeoutMs: number,
  what: string,
): Promise<T> {
  return (await waitFor(check, timeoutMs, what)) as T;
}
