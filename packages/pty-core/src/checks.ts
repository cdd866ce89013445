// The argument checks every PTY adapter applies the same way, whatever the platform: what
// stdin.write takes, what a size is, which kill modes exist, the timers' bounds.
import {
  DEFAULT_KILL_GRACE_MS,
  FORCE_KILL_SETTLE_MS,
  integerOption,
  invalidOption,
  type KillMode,
  MAX_KILL_GRACE_MS,
  oneOf,
  TERMINAL_COLUMNS_LIMIT,
  TERMINAL_ROWS_LIMIT,
} from '@procmux/core-types';

/** The longest a PTY adapter's own timers (drain, force settle) may be set to. */
export const MAX_PTY_TIMER_MS = 60_000;

const KILL_MODES: readonly KillMode[] = ['graceful', 'force'];

/** What stdin.write takes: text or bytes. */
export function checkPtyInput(data: unknown): string | Uint8Array {
  if (typeof data === 'string' || data instanceof Uint8Array) return data;
  throw invalidOption('data', 'a string or a Uint8Array', { value: data });
}

/** A resize: both integers from 1 to the terminal limits. */
export function checkPtySize(cols: unknown, rows: unknown): { cols: number; rows: number } {
  return {
    cols: integerOption('cols', cols, { min: 1, max: TERMINAL_COLUMNS_LIMIT.hard, required: true }),
    rows: integerOption('rows', rows, { min: 1, max: TERMINAL_ROWS_LIMIT.hard, required: true }),
  };
}

/** kill()'s mode: 'graceful' or 'force' (the default). */
export function checkKillMode(mode: unknown): KillMode {
  return oneOf('mode', mode, KILL_MODES, { default: 'force' });
}

/** The timers every PTY adapter runs around a force kill. */
export interface PtyKillTimings {
  /** Grace between the tree kill's polite and forced steps: 3000, 0 to 60000. */
  killGraceMs: number;
  /** A force kill that brings no exit this long after the tree kill settles as SIGKILL: 4000, 0 to 60000. */
  forceKillSettleMs: number;
}

/** Validates and defaults the kill timers; out of range is refused, never clamped. */
export function resolveKillTimings(options: {
  killGraceMs?: unknown;
  forceKillSettleMs?: unknown;
}): PtyKillTimings {
  return {
    killGraceMs: integerOption('killGraceMs', options.killGraceMs, {
      min: 0,
      max: MAX_KILL_GRACE_MS,
      default: DEFAULT_KILL_GRACE_MS,
    }),
    forceKillSettleMs: integerOption('forceKillSettleMs', options.forceKillSettleMs, {
      min: 0,
      max: MAX_PTY_TIMER_MS,
      default: FORCE_KILL_SETTLE_MS,
    }),
  };
}
