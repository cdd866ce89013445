import { ProcmuxError } from './errors.js';
import type { Limit } from './limits.js';

/**
 * Resolves an optional integer option against a limit: undefined → default; an integer in
 * [min, hard] → itself; anything else → ERR_INVALID_OPTION saying what is allowed. Never clamps.
 */
export function resolveLimit(name: string, value: unknown, limit: Limit, min = 1): number {
  if (value === undefined) return limit.default;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > limit.hard) {
    throw new ProcmuxError(
      'ERR_INVALID_OPTION',
      `${name} must be an integer from ${min} to ${limit.hard} (got ${describe(value)})`,
      { details: { option: name, min, max: limit.hard } },
    );
  }
  return value;
}

/** A short, non-secret description of a bad value for an error message. */
export function describe(value: unknown): string {
  if (typeof value === 'string')
    return value.length > 40 ? `a string of ${value.length} characters` : JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean' || value === null || value === undefined)
    return String(value);
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}
