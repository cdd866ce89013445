import { DEFAULT_KILL_GRACE_MS, MAX_KILL_GRACE_MS } from './limits.js';
import { integerOption, optionsObject } from './option-checks.js';

/**
 * graceMs of a tree kill: undefined → 3000; an integer from 0 to 60000 is itself; anything
 * else is refused (an infinite grace would make the kill unbounded, and nothing is clamped).
 * Shared by the platform kill packages so both read the option the same way, and the same
 * rule as the adapters' killGraceMs.
 */
export function resolveGraceMs(value: unknown): number {
  return integerOption('graceMs', value, { min: 0, max: MAX_KILL_GRACE_MS, default: DEFAULT_KILL_GRACE_MS });
}

/** An options argument: absent, or an object (optionsObject under its older name). */
export function validateOptionsObject<T extends object>(options: unknown): Partial<T> {
  return optionsObject<T>(options);
}
