// The exit a pid-namespace run reports: the waiter's (`unshare --fork`), which is the
// program's own for every exit code and every signal but SIGKILL. util-linux's unshare (2.38
// on this VM) cannot re-raise SIGKILL: it prints "sigprocmask unblock failed" and exits 1, so a
// program killed from outside read as exit 1. Its stderr goes to a status file (wrap.ts); a
// complaint there after the program started turns that exit 1 into the SIGKILL it was.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ProcessAdapter, WaitResult } from '@procmux/core-types';
import { PROGRAM_STARTED_MARK } from './wrap.js';

export interface WaiterStatusEffects {
  /** Makes a private directory; returns its path. */
  makeDir(): string;
  read(file: string): string | undefined;
  removeDir(dir: string): void;
}

export const nodeWaiterStatusEffects: WaiterStatusEffects = {
  makeDir: () => mkdtempSync(join(tmpdir(), 'procmux-pidns-')),
  read: (file) => {
    try {
      return readFileSync(file, 'utf8');
    } catch {
      return undefined;
    }
  },
  removeDir: (dir) => rmSync(dir, { recursive: true, force: true }),
};

/** The status file inside a run's private directory. */
export function waiterStatusFile(dir: string): string {
  return join(dir, 'waiter');
}

/**
 * The program's exit, from the waiter's and what the waiter wrote to the status file: exit 1
 * with anything after the started mark is the SIGKILL unshare could not pass on; everything
 * else is the waiter's result as it is (a program's own `exit 1` leaves the file at the mark).
 *
 * @example
 * readWaiterExit({ code: 1, signal: null }, '.unshare: sigprocmask unblock failed: …'); // { code: null, signal: 'SIGKILL' }
 * readWaiterExit({ code: 1, signal: null }, '.'); // { code: 1, signal: null }
 */
export function readWaiterExit(result: WaitResult, status: string | undefined): WaitResult {
  if (result.code !== 1 || status === undefined) return result;
  if (!status.startsWith(PROGRAM_STARTED_MARK) || status.length === PROGRAM_STARTED_MARK.length)
    return result;
  return { code: null, signal: 'SIGKILL' };
}

/**
 * Makes `adapter.wait()` report the program's exit (readWaiterExit) and remove the run's
 * private directory once it is read. Returns the same adapter.
 */
export function reportProgramExit<A extends ProcessAdapter>(
  adapter: A,
  dir: string,
  fx: WaiterStatusEffects = nodeWaiterStatusEffects,
): A {
  const own = adapter.wait.bind(adapter);
  let exit: Promise<WaitResult> | undefined;
  adapter.wait = () => {
    exit ??= own().then(
      (result) => {
        const status = fx.read(waiterStatusFile(dir));
        fx.removeDir(dir);
        return readWaiterExit(result, status);
      },
      (error: unknown) => {
        fx.removeDir(dir);
        throw error;
      },
    );
    return exit;
  };
  return adapter;
}
