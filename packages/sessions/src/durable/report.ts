import type { ProcmuxErrorCode, SessionState } from '@procmux/core-types';

/**
 * What recover() did with one durable record:
 * - `attached`: the session is live in this registry already, or another recover() of it (runs
 *   may overlap) is re-attaching it and reports how that went; the record was not touched.
 * - `terminal`: the record had ended; `exitCode` is the one it recorded.
 * - `reattached`: the recovery backend re-attached the process; the session is live here now.
 * - `unknown`: the outcome cannot be known here. With `written: true` the record now says
 *   `unknown` (exit code null); with `written: false` it was left as it was (`code` says why:
 *   a live replica's lease, a fence conflict, no room for another live session).
 * - `dropped`: corrupt, oversized, forbidden-field (ERR_RECOVERY_UNTRUSTED) or another tenant's
 *   (ERR_RECOVERY_OWNERSHIP) record; never recovered and left as it was.
 */
export type RecoveryOutcomeKind = 'attached' | 'terminal' | 'reattached' | 'unknown' | 'dropped';

export interface RecoveryOutcome {
  /** Session id (the record's key). */
  id: string;
  outcome: RecoveryOutcomeKind;
  /** The session's state after recovery; null for dropped records. */
  state: SessionState | null;
  /** Non-null only for a record that exited with a code; never invented. */
  exitCode: number | null;
  /** Whether recover() wrote the record. */
  written: boolean;
  code?: ProcmuxErrorCode;
  reason?: string;
}

export interface RecoveryReport {
  outcomes: RecoveryOutcome[];
}
