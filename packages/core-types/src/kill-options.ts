import { ProcmuxError } from './errors.js';
import { DEFAULT_KILL_GRACE_MS, MAX_KILL_GRACE_MS } from './limits.js';
import { describe, optionsObject } from './option-checks.js';

/**
 * graceMs of a tree kill as the design states it: undefined → 3000; a number is clamped to
 * 0..60000 (an infinite grace would make the kill unbounded); NaN or a non-number is an error.
 * Shared by the platform kill packages so both read the option the same way.
 */
export function resolveGraceMs(value: unknown): number {
  if (value === undefined) return DEFAULT_KILL_GRACE_MS;
  if (typeof value !== 'number' || Number.isNaN(value)) {
    throw new ProcmuxError(
      'ERR_INVALID_OPTION',
      `graceMs must be a number of milliseconds, clamped to 0..${MAX_KILL_GRACE_MS} (got ${describe(value)})`,
      { details: { option: 'graceMs', min: 0, max: MAX_KILL_GRACE_MS } },
    );
  }
  return Math.min(Math.max(value, 0), MAX_KILL_GRACE_MS);
}

/** An options argument: absent, or an object (optionsObject under its older name). */
export function validateOptionsObject<T extends object>(options: unknown): Partial<T> {
  return optionsObject<T>(options);
}
