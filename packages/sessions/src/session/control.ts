// Stopping a session: a signal, a kill of the whole tree (a terminal is hung up first),
// release, expiry, and the ends without a process (unknown).
import { constants } from 'node:os';
import { invalidOption, isTerminalState, ProcmuxError, type SignalName } from '@procmux/core-types';
import type { WaitOutcome } from '../types.js';
import type { SessionCore } from './core.js';
import { access, mutable } from './guards.js';
import { hangUpRun } from './hang-up.js';
import { retireScreen, settle } from './lifecycle.js';

export async function signal(s: SessionCore, name: SignalName): Promise<void> {
  if (typeof name !== 'string' || !(name in constants.signals)) {
    throw invalidOption('signal', 'a signal name such as "SIGINT" or "SIGTERM"', { value: name });
  }
  await mutable(s, 'signal', { signal: name });
  // A host handle signals its own process; a native one needs a pid.
  if (!s.adapter && s.pid === undefined)
    throw new ProcmuxError('ERR_PROCESS_STATE', `session ${s.id} has no process id to signal`);
  await s.run!.signal(name);
}

export async function kill(s: SessionCore): Promise<WaitOutcome> {
  await mutable(s, 'kill', { signal: 'SIGKILL' });
  s.forced = 'killed';
  await hangUp(s);
  s.run?.cancel('manual-cancel');
  await s.settled;
  return { exitCode: s.exitCode, signal: s.signal, state: s.state };
}

/**
 * The graceful step for a terminal session: its run hangs the terminal up (SIGHUP to its
 * foreground group and its leader, as closing a terminal window does) and the program gets a
 * moment to end. A host backend's run and a run on pipes have nothing to hang up.
 */
async function hangUp(s: SessionCore): Promise<void> {
  if (!s.live || s.run === undefined) return;
  await hangUpRun(s.run);
}

export async function release(s: SessionCore): Promise<void> {
  await access(s);
  if (!s.live) {
    throw new ProcmuxError(
      'ERR_PROCESS_STATE',
      `session ${s.id} is ${s.state}; only a running session can be released`,
    );
  }
  if (s.adapter?.handle.release) await s.adapter.handle.release();
  settle(s, 'released', null, null, 'released by the host');
  void retireScreen(s);
}

/**
 * The registry's dispose() leaves a detached session running for a later host: its handle
 * stops following the process (else it would still read the end and clear the backend's
 * files, and a host that adopted the session in this process would never see it end). The
 * record is not touched: the session is not ended, only no longer watched from here.
 */
export async function letGo(s: SessionCore): Promise<void> {
  if (s.live && s.adapter?.handle.release) await s.adapter.handle.release();
}

/** Ends the record without a process (failed attach, backend lost before start). */
export function failUnknown(s: SessionCore, reason: string): void {
  if (isTerminalState(s.state)) return;
  settle(s, 'unknown', null, null, reason);
}

/** Kills the process and records `expired`. */
export async function expire(s: SessionCore): Promise<void> {
  if (!s.live) return;
  s.forced = 'expired';
  await hangUp(s);
  s.run?.cancel('manual-cancel');
  await s.settled;
}

/** Registry's markUnknown/reconcile: terminal, never an invented exit code. */
export function markUnknown(s: SessionCore, reason = 'marked unknown by the host'): void {
  if (!s.live) return;
  settle(s, 'unknown', null, null, reason);
}
