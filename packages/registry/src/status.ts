import type { SignalName, TerminationReason } from '@procmux/core-types';

/** How a finished session ended, as a person would put it. */
export type FinishedStatus = 'completed' | 'failed' | 'killed';

/** How a session's process ended; a RunExit from the supervisor fits as it is. */
export interface SessionExit {
  exitCode: number | null;
  signal: SignalName | null;
  /** Why the run ended; a forced reason (timeout, cancel) makes the session 'killed'. */
  reason?: TerminationReason;
  /** Epoch milliseconds of the exit (default: the registry's clock at markExited). */
  endedAt?: number;
}

// Reasons under which procmux or the caller stopped the process, whatever its exit code.
const FORCED: ReadonlySet<TerminationReason> = new Set<TerminationReason>([
  'signal',
  'overall-timeout',
  'no-output-timeout',
  'manual-cancel',
]);

/**
 * Maps an exit to a status. Forced reasons win over a signal, a signal over a code (as
 * TerminationReason does): a forced reason or any signal → 'killed'; code 0 → 'completed';
 * anything else (a non-zero code, a spawn error with no code) → 'failed'.
 */
export function finishedStatus(exit: SessionExit): FinishedStatus {
  if (exit.reason !== undefined && FORCED.has(exit.reason)) return 'killed';
  if (exit.signal !== null) return 'killed';
  return exit.exitCode === 0 ? 'completed' : 'failed';
}
